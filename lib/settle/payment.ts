import type { Address, Hex } from "viem";
import type { Db } from "@/db/client";
import { linkSettlement, recordLinkedTransaction } from "@/db/queries/settle-view";
import {
  findReleaseTarget,
  renewBatchLeases,
  storeRelayAuthorization,
  storeRelayTask,
} from "@/db/queries/settlements";
import type {
  ChainTransaction,
  Deal,
  Milestone,
  ReleaseAuthorization,
  Settlement,
} from "@/db/schema";
import { chainConfig, requireEscrow, requireTreasury } from "@/lib/chain/config";
import { relayProvider } from "@/lib/chain/relay";
import { gelatoRelayer } from "@/lib/chain/relayer";
import {
  estimateAhead,
  type GasEstimate,
  recordTransaction,
  type StatementLink,
  signerAccount,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import { chainNow, escrowCall, escrowKey } from "@/lib/escrow/chain";
import { releaseTypedData } from "@/lib/escrow/onchain";

// Paying a settlement is one escrow release: `payout` to the creator and the rest of the
// milestone back to the brand, carrying the verdict record's hash. Either the evaluator
// (the service's attestor key) sends `release` itself (`direct`), or it signs the release
// (EIP-712) and a relayer submits `releaseWithSig`, paying the gas (`relay`). The escrow
// releases a milestone at most once, whoever submits and however often.

const SIGNATURE_TTL_SECONDS = 60n * 60n;

export type ReleaseTarget = { deal: Deal; milestone: Milestone };

export async function releaseTarget(db: Db, s: Settlement): Promise<ReleaseTarget> {
  const row = await findReleaseTarget(db, s.milestoneId);
  if (!row) throw new Error(`settlement ${s.id} has no milestone`);
  return row;
}

/**
 * Starts estimating the direct release a settlement of `payout` on this verdict will send,
 * before the settlement exists (settle runs its claim meanwhile). The send uses it only if
 * its call turns out the same. Undefined when the chain is not configured: the payment
 * itself says so, where it always has.
 */
export function estimateRelease(
  target: ReleaseTarget,
  payout: bigint,
  verdictHash: Hex,
): GasEstimate | undefined {
  const config = chainConfig();
  if (!config.treasuryKey || !config.escrow) return undefined;
  return estimateAhead(config.treasuryKey, {
    to: config.escrow,
    data: escrowCall.release(
      escrowKey(target.deal),
      target.milestone.position,
      payout,
      verdictHash,
    ),
  });
}

/** The evaluator's signature of one release, valid until `deadline` (chain time). */
export async function signRelease(
  s: Settlement,
  target: ReleaseTarget,
  deadline: bigint,
): Promise<ReleaseAuthorization> {
  const config = chainConfig();
  const account = signerAccount(requireTreasury(config));
  const signature = await account.signTypedData(
    releaseTypedData({
      chainId: config.chainId,
      escrow: requireEscrow(config),
      dealKey: escrowKey(target.deal),
      index: target.milestone.position,
      payout: s.amountUnits,
      verdictHash: s.verdictHash as Hex,
      deadline,
    }),
  );
  return { deadline: deadline.toString(), signature };
}

/**
 * The settlement's link to its transaction, written by the transaction's insert itself (one
 * statement, recordLinkedTransaction): it applies only if that row is inserted, so a send
 * retried on another nonce links the row that was recorded, and only that one.
 */
function linkTo(settlementId: string): StatementLink {
  return { record: (db, row) => recordLinkedTransaction(db, settlementId, row) };
}

/** What a batch transaction's purpose starts with (lib/settle/batch.ts). */
export const RELEASE_BATCH_PURPOSE = "release-batch";

/** Whether a chain transaction is a releaseBatch of several settlements. */
export const isReleaseBatch = (t: Pick<ChainTransaction, "purpose">) =>
  t.purpose.startsWith(RELEASE_BATCH_PURPOSE);

/**
 * Records one releaseBatch transaction for several fresh direct settlements (each with its
 * lease held by the caller), linking every one of them to it in the transaction that records
 * it: they are `submitted` together, and a crash leaves rows reconcile finishes as any
 * release. Nothing is sent yet (lib/settle/batch.ts broadcasts it). Each settlement's lease
 * is renewed for `leaseSecs` in that same transaction; if one is no longer the caller's (or
 * no longer unsent), nothing is recorded.
 */
export async function submitReleaseBatch(
  db: Db,
  items: ReadonlyArray<{ settlement: Settlement; target: ReleaseTarget }>,
  leaseSecs: number,
): Promise<ChainTransaction> {
  const config = chainConfig();
  const escrow = requireEscrow(config);
  const calls = items.map(({ settlement: s, target }) => {
    if (!s.verdictHash) throw new Error(`settlement ${s.id} has no verdict hash`);
    return {
      key: escrowKey(target.deal),
      index: target.milestone.position,
      payout: s.amountUnits,
      verdictHash: s.verdictHash as Hex,
    };
  });
  return recordTransaction(
    db,
    requireTreasury(config),
    {
      to: escrow,
      data: escrowCall.releaseBatch(calls),
      purpose: `${RELEASE_BATCH_PURPOSE}:${items.length}`,
    },
    async (tx, row) => {
      // Still this caller's, still unsent (lib/settle/batch.ts renewed the leases just before):
      // a settlement taken over meanwhile is never linked to, or overwritten by, this batch.
      const held = await renewBatchLeases(
        tx,
        items.map(({ settlement: s }) => ({ id: s.id, owner: s.leaseOwner })),
        leaseSecs,
      );
      if (held.size < items.length) throw new Error("a batched settlement is no longer held");
      const linked = await Promise.all(
        items.map(({ settlement: s }) => linkSettlement(tx, s.id, row)),
      );
      // Recorded but not linked cannot happen; if it did, nothing is committed.
      if (linked.includes(false)) throw new Error("a batched settlement could not be linked");
    },
  );
}

/**
 * Starts the release of a settlement that has none under way (`pending`, or `failed` after
 * a revert that moved nothing). The caller has checked the milestone is still locked in
 * the escrow. Returns the recorded chain transaction, or null when an external relayer
 * took it (its task id is stored instead). `known`: the settlement's deal and milestone
 * when the caller has them (only their ids, the deal's funding wallet — its escrow key — and
 * the milestone's position are used).
 */
export async function submitPayment(
  db: Db,
  s: Settlement,
  known?: ReleaseTarget,
  estimate?: GasEstimate,
): Promise<ChainTransaction | null> {
  const config = chainConfig();
  const escrow = requireEscrow(config);
  if (!s.verdictHash) throw new Error(`settlement ${s.id} has no verdict hash`);
  const target = known ?? (await releaseTarget(db, s));
  const index = target.milestone.position;
  if (s.via === "direct") {
    return recordTransaction(
      db,
      requireTreasury(config),
      {
        to: escrow,
        data: escrowCall.release(
          escrowKey(target.deal),
          index,
          s.amountUnits,
          s.verdictHash as Hex,
        ),
        purpose: `settlement:${s.id}`,
        estimate,
      },
      linkTo(s.id),
    );
  }

  // Relay: reuse the stored signature while the chain's clock says it is valid; once it has
  // lapsed, sign a new one. Renewing is safe: the escrow releases this milestone once, so
  // a relayer holding both signatures can still execute only one release.
  let auth = s.relayAuthorization;
  const now = await chainNow();
  if (!auth || BigInt(auth.deadline) <= now + 60n) {
    auth = await signRelease(s, target, now + SIGNATURE_TTL_SECONDS);
    await storeRelayAuthorization(db, s.id, auth);
  }
  const data = escrowCall.releaseWithSig(
    escrowKey(target.deal),
    index,
    s.amountUnits,
    s.verdictHash as Hex,
    BigInt(auth.deadline),
    auth.signature as Hex,
  );
  const provider = relayProvider(config);
  if (provider === "local") {
    if (!config.sponsorKey)
      throw new AppError("not_configured", "The local relayer has no sponsor key.");
    return recordTransaction(
      db,
      config.sponsorKey,
      { to: escrow, data, purpose: `relay:${s.id}` },
      linkTo(s.id),
    );
  }
  if (provider === "gelato") {
    const taskId = await gelatoRelayer().sponsoredCall({
      chainId: config.chainId,
      target: escrow as Address,
      data,
    });
    await storeRelayTask(db, s.id, taskId);
    return null;
  }
  throw new AppError("not_configured", "Relayed settlement is not configured on this deployment.");
}
