import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  zeroAddress,
} from "viem";
import { z } from "zod";
import { mockUsdcAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import {
  attachDripTx,
  DRIP_ADDRESS_INDEX,
  DRIP_USER_INDEX,
  findBlockingDrip,
  findDrip,
  insertDrip,
  releaseAbandonedClaim,
  releaseDrip,
  setDripStatus,
} from "@/db/queries/faucet-drips";
import { type ChainTransaction, type FaucetDrip, txStatuses, type User } from "@/db/schema";
import { address, hex32 } from "@/lib/api/fields";
import { chainConfig, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { explorerTxUrl } from "@/lib/chain/explorer";
import {
  awaitReceipt,
  broadcast,
  estimateAhead,
  type GasEstimate,
  getChainTransaction,
  recordTransaction,
  resumeTransaction,
} from "@/lib/chain/sender";
import { AppError, notFound } from "@/lib/errors";
import { unitsToDecimal } from "@/lib/money";
import { requestWaitMs } from "@/lib/settle/advance";

// The testnet faucet: 2.00 USDC from the treasury, once per address and once per user.
//
// "Once" is decided by the faucet_drips unique indexes, at the claim: a drip row inserted
// before any nonce is allocated, so a call that loses the address or the user to another
// costs nothing (a refusal after the allocation would leave a nonce for a no-op to fill).
// The claim's transfer is recorded in the sender's transaction (its `link` attaches it):
// - the transfer's gas is estimated before the claim, so a claim gets its transfer within
//   milliseconds; a concurrent call finding a claim without one waits for it (awaitClaim);
// - recording fails (node down, the transfer would revert: treasury empty) → the claim is
//   released, nothing was signed, the caller gets 502 and may simply retry; a process that
//   dies in between leaves a claim that is released once it is clearly abandoned;
// - the broadcast fails after recording → the drip stays `pending` with its signed bytes;
//   the next call for that address or user RESUMES it (same bytes, same hash — never a
//   second transfer) instead of claiming a new one, and answers `already_funded`;
// - the node refuses the transfer outright, or it reverts → nothing moved, so the claim is
//   released and a later call may drip again.

/** A claim older than this without its transfer recorded was abandoned (its process died). */
const CLAIM_ABANDONED_MS = 60_000;

export const DRIP_UNITS = 2_000_000n;
export const DRIP_AMOUNT = unitsToDecimal(DRIP_UNITS, 2); // "2.00"

export const dripResponse = z
  .object({
    funded: z.boolean().describe("false: this address or user had its drip already"),
    amount: z.string().describe('"2.00"'),
    txHash: hex32,
    reason: z.literal("already_funded").optional(),
    address,
    chainId: z.number().int(),
    status: z.enum(txStatuses),
    explorerUrl: z.string().nullable(),
    poll: z
      .string()
      .optional()
      .describe(
        "202 only (status pending or submitted): the transfer is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; GET it for the drip's state (reconcile finishes the transfer)",
      ),
  })
  .meta({ id: "Drip" });
export type DripResult = z.infer<typeof dripResponse>;

const faucetUnavailable = (cause?: unknown) =>
  new AppError(
    "unavailable",
    "The faucet could not send USDC right now (its treasury may be empty). Nothing was sent.",
    { cause },
  );

function answer(drip: FaucetDrip, funded: boolean): DripResult {
  const txHash = drip.txHash as Hex;
  return {
    funded,
    amount: DRIP_AMOUNT,
    txHash,
    ...(funded ? {} : { reason: "already_funded" as const }),
    address: getAddress(drip.address),
    chainId: drip.chainId,
    status: drip.status,
    explorerUrl: explorerTxUrl(drip.chainId, txHash),
    ...(drip.status === "pending" || drip.status === "submitted"
      ? { poll: `/api/faucet/drip?address=${getAddress(drip.address)}` }
      : {}),
  };
}

/** Copies the transaction's state onto the drip; a transfer that never happened releases it. */
async function settle(db: Db, drip: FaucetDrip, chainTx: ChainTransaction): Promise<FaucetDrip> {
  if (chainTx.status === "failed") {
    await releaseDrip(db, drip);
    throw faucetUnavailable(chainTx.error);
  }
  return (
    (await setDripStatus(db, { id: drip.id, status: chainTx.status, txHash: chainTx.hash })) ?? drip
  );
}

/** Broadcasts a freshly claimed drip and waits for it (bounded). */
async function send(db: Db, drip: FaucetDrip, chainTx: ChainTransaction): Promise<FaucetDrip> {
  let sent: ChainTransaction;
  try {
    sent = await broadcast(db, chainTx);
  } catch (err) {
    // Refused → the sender marked it failed and nothing was sent: release the claim.
    // Node unreachable → it stays pending and the next call resumes it.
    const current = await getChainTransaction(db, chainTx.id);
    if (current?.status === "failed") await releaseDrip(db, drip);
    throw err;
  }
  const submitted = await settle(db, drip, sent);
  // Waited for within the request's budget on the chain; past it the drip answers 202.
  return settle(db, submitted, await awaitReceipt(db, sent, requestWaitMs()));
}

/**
 * Brings an existing drip up to date, resuming its transaction when it is unfinished.
 * Returns null when the drip never happened and was released (the caller may claim anew).
 */
async function finish(db: Db, drip: FaucetDrip): Promise<FaucetDrip | null> {
  const chainTx = drip.chainTxId ? await getChainTransaction(db, drip.chainTxId) : null;
  if (!chainTx) return drip;
  const current =
    chainTx.status === "pending" || chainTx.status === "submitted"
      ? await resumeTransaction(db, chainTx, requestWaitMs())
      : chainTx;
  if (current.status === "failed") {
    await releaseDrip(db, drip);
    return null;
  }
  if (current.status === drip.status && drip.txHash === current.hash) return drip;
  return setDripStatus(db, { id: drip.id, status: current.status, txHash: current.hash });
}

/**
 * Sends 2.00 USDC to `address` unless this address or this user already had a drip on the
 * active chain; then it answers with the first drip's hash. Testnets only.
 */
export async function dripOnce(
  db: Db,
  user: Pick<User, "id">,
  address: Address,
): Promise<DripResult> {
  const config = chainConfig();
  // Before anything touches the chain or the database.
  if (!config.known.testnet)
    throw new AppError(
      "faucet_disabled",
      `The faucet only runs on testnets; this deployment settles on ${config.known.chain.name}.`,
    );
  const to = getAddress(address);
  if (isAddressEqual(to, zeroAddress))
    throw new AppError("invalid_request", "The zero address cannot receive USDC.", {
      details: [{ path: ["address"], message: "must not be the zero address" }],
    });
  const key = requireTreasury(config);
  const who = { chainId: config.chainId, userId: user.id, address: to };
  const transfer = {
    to: requireUsdc(config),
    data: encodeFunctionData({
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [to, DRIP_UNITS],
    }),
    purpose: `faucet:${to}`,
  };
  let estimate: GasEstimate | undefined;
  // A lost race ends in a unique violation; the loop then finds the winner's drip.
  for (let attempt = 0; attempt < 4; attempt++) {
    const existing = await findBlockingDrip(db, who);
    if (existing) {
      const recorded = existing.chainTxId ? existing : await awaitClaim(db, existing);
      const finished = recorded && (await finish(db, recorded));
      if (finished) return answer(finished, false);
      continue; // released: this call may claim
    }
    if (!estimate) {
      // The network wait comes before the claim, which then gets its transfer within
      // milliseconds; the drips are looked at again after it.
      estimate = estimateAhead(key, transfer);
      await estimate.gas;
      continue;
    }
    let claimed: FaucetDrip;
    try {
      claimed = await insertDrip(db, {
        ...who,
        amountUnits: DRIP_UNITS,
        txHash: null,
        chainTxId: null,
      });
    } catch (err) {
      if (isUniqueViolation(err, DRIP_ADDRESS_INDEX) || isUniqueViolation(err, DRIP_USER_INDEX))
        continue;
      throw err;
    }
    let chainTx: ChainTransaction;
    try {
      chainTx = await recordTransaction(db, key, { ...transfer, estimate }, async (tx, row) => {
        const attached = await attachDripTx(tx, {
          id: claimed.id,
          chainTxId: row.id,
          txHash: row.hash as string,
        });
        if (!attached) throw new Error("the drip claim was released before its transfer");
      });
    } catch (err) {
      // Node down, or the transfer would revert (treasury empty): the sender says so (502),
      // nothing was recorded, and the claim goes.
      await releaseDrip(db, claimed);
      throw err;
    }
    const drip = { ...claimed, chainTxId: chainTx.id, txHash: chainTx.hash };
    return answer(await send(db, drip, chainTx), true);
  }
  throw busy();
}

const busy = () => new AppError("conflict", "The faucet is busy with this address; try again.");

/**
 * A claim another call is recording (no transfer yet): its drip once the transfer is
 * recorded, or null when it was released (or abandoned, and released here). Waits at most
 * the request's chain budget, though a recording takes milliseconds.
 */
async function awaitClaim(db: Db, claim: FaucetDrip): Promise<FaucetDrip | null> {
  const deadline = Date.now() + requestWaitMs();
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    if (await releaseAbandonedClaim(db, { id: claim.id, ms: CLAIM_ABANDONED_MS })) return null;
    const now = await findDrip(db, claim.id);
    if (!now || now.chainTxId) return now;
    if (Date.now() >= deadline) throw busy();
    await new Promise((r) => setTimeout(r, delay));
  }
}

/**
 * GET /api/faucet/drip?address=: the caller's drip (to that address, or theirs to another)
 * as it stands, its status read from its transaction, which reconcile finishes. Sends
 * nothing. 404 when the caller has had no drip.
 */
export async function dripState(
  db: Db,
  user: Pick<User, "id">,
  address: Address,
): Promise<DripResult> {
  const config = chainConfig();
  const drip = await findBlockingDrip(db, {
    chainId: config.chainId,
    userId: user.id,
    address: getAddress(address),
  });
  if (!drip || drip.userId !== user.id) throw notFound("Drip");
  if (!drip.chainTxId) throw busy(); // claimed, its transfer being recorded right now
  const chainTx = drip.chainTxId ? await getChainTransaction(db, drip.chainTxId) : null;
  if (!chainTx || chainTx.status === "failed" || chainTx.status === drip.status)
    return answer(drip, true);
  const current = await setDripStatus(db, {
    id: drip.id,
    status: chainTx.status,
    txHash: chainTx.hash,
  });
  return answer(current ?? drip, true);
}
