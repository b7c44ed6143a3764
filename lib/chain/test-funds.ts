import { type Address, encodeFunctionData, getAddress, type Hex, parseEther, toHex } from "viem";
import { z } from "zod";
import { mockUsdcAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import { findLatestByPurpose } from "@/db/queries/chain-transactions";
import { type ChainTransaction, txStatuses, type User } from "@/db/schema";
import { address, hex32 } from "@/lib/api/fields";
import { chainConfig, publicClient, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { explorerTxUrl } from "@/lib/chain/explorer";
import { broadcastAndAwait, recordTransaction } from "@/lib/chain/sender";
import { AppError, notFound } from "@/lib/errors";
import { unitsToDecimal } from "@/lib/money";
import { requestWaitMs } from "@/lib/settle/advance";

// The local chain only: test USDC (minted by the token's owner, the local treasury) and
// gas money for a brand's wallet, so that a brand can fund the starter deals' escrow with
// one click and no account anywhere. Testnets use their real USDC and the 2.00 faucet.

export const TEST_USDC_UNITS = 1_000_000_000n; // 1,000 USDC
const GAS_MONEY = parseEther("1");

export const testFundsResponse = z
  .object({
    address,
    amount: z.string(),
    txHash: hex32,
    explorerUrl: z.string().nullable(),
    status: z.enum(txStatuses),
    poll: z
      .string()
      .optional()
      .describe(
        "202 only (status pending or submitted): the mint is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; GET it for the mint's state (reconcile finishes it)",
      ),
  })
  .meta({ id: "TestFunds" });
export type TestFundsResult = z.infer<typeof testFundsResponse>;

/** The local chain's configuration and the address, checksummed; 403 on any other chain. */
function localTarget(to: string) {
  const config = chainConfig();
  if (config.known.name !== "local")
    throw new AppError(
      "faucet_disabled",
      "Test USDC is minted only on the local chain; on testnets use the chain's USDC faucet.",
    );
  return { config, address: getAddress(to) };
}

/** The mint's transaction purpose: per address and per caller (the poll is the caller's own). */
const purposeOf = (address: Address, caller: Pick<User, "id">) =>
  `test-usdc:${address}:${caller.id}`;

function answer(row: ChainTransaction, address: Address): TestFundsResult {
  const inFlight = row.status === "pending" || row.status === "submitted";
  return {
    address,
    amount: unitsToDecimal(TEST_USDC_UNITS, 2),
    txHash: row.hash as Hex,
    explorerUrl: explorerTxUrl(row.chainId, row.hash as string),
    status: row.status,
    ...(inFlight ? { poll: `/api/faucet/test-usdc?address=${address}` } : {}),
  };
}

/**
 * Mints 1,000 test USDC to `to` (and gas money when it has little), waiting for the mint
 * within the request's chain budget (CHAIN_BUDGET_SECONDS): confirmed by then → 200; sent
 * and not yet confirmed → `poll` (the route's 202), and reconcile finishes it. A node that
 * does not answer, or refuses the mint, is a 502 as before.
 */
export async function mintTestFunds(
  db: Db,
  caller: Pick<User, "id">,
  to: string,
): Promise<TestFundsResult> {
  const { config, address } = localTarget(to);
  const client = publicClient();
  if ((await client.getBalance({ address })) < GAS_MONEY / 10n)
    await client.request({
      method: "anvil_setBalance" as never,
      params: [address, toHex(GAS_MONEY)] as never,
    });
  const row = await recordTransaction(db, requireTreasury(config), {
    to: requireUsdc(config),
    data: encodeFunctionData({
      abi: mockUsdcAbi,
      functionName: "mint",
      args: [address, TEST_USDC_UNITS],
    }),
    purpose: purposeOf(address, caller),
  });
  const done = await broadcastAndAwait(db, row, requestWaitMs());
  if (done.status === "failed")
    throw new AppError("chain_unavailable", "The local chain did not confirm the mint; try again.");
  return answer(done, address);
}

/**
 * GET /api/faucet/test-usdc?address=: the caller's latest mint to that address as it stands
 * (what a 202's `poll` names), its status read from its transaction, which reconcile
 * finishes. Sends nothing. 404 when the caller has minted nothing there.
 */
export async function testFundsState(
  db: Db,
  caller: Pick<User, "id">,
  to: string,
): Promise<TestFundsResult> {
  const { config, address } = localTarget(to);
  const row = await findLatestByPurpose(db, {
    chainId: config.chainId,
    purpose: purposeOf(address, caller),
  });
  if (!row) throw notFound("Mint");
  return answer(row, address);
}
