import { encodeFunctionData, getAddress, type Hex, parseEther, toHex } from "viem";
import { z } from "zod";
import { mockUsdcAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import type { User } from "@/db/schema";
import { address, hex32 } from "@/lib/api/fields";
import { chainConfig, publicClient, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { explorerTxUrl } from "@/lib/chain/explorer";
import { recordTransaction, resumeTransaction } from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import { unitsToDecimal } from "@/lib/money";

// The local chain only: test USDC (minted by the token's owner, the local treasury) and
// gas money for a brand's wallet, so that a brand can fund the starter deals' escrow with
// one click and no account anywhere. Testnets use their real USDC and the 2.00 faucet.

export const TEST_USDC_UNITS = 1_000_000_000n; // 1,000 USDC
const GAS_MONEY = parseEther("1");

export const testFundsResponse = z.object({
  address,
  amount: z.string(),
  txHash: hex32,
  explorerUrl: z.string().nullable(),
});
export type TestFundsResult = z.infer<typeof testFundsResponse>;

export async function mintTestFunds(db: Db, _caller: User, to: string): Promise<TestFundsResult> {
  const config = chainConfig();
  if (config.known.name !== "local")
    throw new AppError(
      "faucet_disabled",
      "Test USDC is minted only on the local chain; on testnets use the chain's USDC faucet.",
    );
  const address = getAddress(to);
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
    purpose: `test-usdc:${address}`,
  });
  const done = await resumeTransaction(db, row);
  if (done.status !== "confirmed")
    throw new AppError("chain_unavailable", "The local chain did not confirm the mint; try again.");
  return {
    address,
    amount: unitsToDecimal(TEST_USDC_UNITS, 2),
    txHash: done.hash as Hex,
    explorerUrl: explorerTxUrl(config.chainId, done.hash as string),
  };
}
