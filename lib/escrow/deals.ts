import { type Address, getAddress, type Hex, isAddressEqual, parseEventLogs } from "viem";
import { z } from "zod";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import { listDealMilestones } from "@/db/queries/deals";
import { getDeposit } from "@/db/queries/deposits";
import {
  closeDeal,
  getDeal,
  listDealsToWatch,
  lockDeal,
  markDealAssigned,
  markDealFunded,
  markDealUnassigned,
  markMilestoneRefunded,
  setAssignTx,
  setFundingWallet,
} from "@/db/queries/escrow";
import { getUserById } from "@/db/queries/users";
import type { Deal, Milestone } from "@/db/schema";
import { address, decimal, hex32, units } from "@/lib/api/fields";
import { chainConfig, publicClient, requireTreasury, requireUsdc } from "@/lib/chain/config";
import {
  chainUnavailable,
  getChainTransaction,
  isTransportError,
  recordTransaction,
  reopenIfRemoved,
  resumeTransaction,
  WouldRevert,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import {
  chainNow,
  escrowCall,
  escrowEvents,
  escrowKey,
  latestBlock,
  readEscrowDeal,
  readEscrowMilestone,
  readEscrowMilestones,
  readRefundRecipient,
} from "@/lib/escrow/chain";
import {
  dealKey,
  dealRef,
  fundingNonce,
  GRACE_PERIOD_SECONDS,
  MilestoneState,
} from "@/lib/escrow/onchain";
import { recordEvent } from "@/lib/events/events";
import { log } from "@/lib/log";
import { unitsToDecimal } from "@/lib/money";

// A deal's life in the escrow, as the server sees it: what the brand must fund, whether the
// chain holds it (read from the contract, never taken from a caller's word), the creator's
// on-chain assignment when they take it, and money going back to the brand (cancel of an
// untaken deal by the brand's own call, or refunds of milestones past deadline + grace).
//
// The escrow keys each deal by its funder (dealKey(funder, dealRef)), so a third party who
// funds this deal's ref lands under their own key: the service only ever reads the deal under
// the brand's funding wallet — the one the brand named (with a funding it reported, a signed
// authorization or ?brand=), else the wallet linked to the brand's account — and opens the
// deal only when that deal's terms are exactly this deal's.

export const toSeconds = (d: Date) => BigInt(Math.floor(d.getTime() / 1000));

function evaluatorAddress(): Address {
  const { treasuryAddress } = chainConfig();
  if (!treasuryAddress) requireTreasury(); // throws not_configured
  return treasuryAddress as Address;
}

/** What a deal must be funded with (GET /api/deals/:id/funding adds the deal's status and deposit address). */
export const fundingTermsBase = z.object({
  chainId: z.number().int(),
  escrow: address,
  usdc: address,
  dealRef: hex32.describe("The deal's ref: what `fund` and `fundWithAuthorization` take"),
  dealKey: hex32
    .nullable()
    .describe(
      "The escrow key of the deal funded by `?brand=` (or the brand's known funding wallet): keccak256(abi.encode(funder, dealRef))",
    ),
  evaluator: address.describe("This service: the only address that can release milestones"),
  deadline: z.number().int().describe("Unix seconds"),
  graceSeconds: z.number().int(),
  amounts: z.array(units).describe("Milestone amounts, in order"),
  total: decimal,
  totalUnits: units,
  authorizationNonce: hex32
    .nullable()
    .describe("The EIP-3009 nonce a gasless authorization must carry (given ?brand=)"),
});
export type FundingTermsJson = z.infer<typeof fundingTermsBase>;

/** What a deal must be funded with: the exact call `fund(dealRef, evaluator, deadline, amounts)`. */
export function fundingTerms(deal: Deal, ms: Milestone[], brand?: Address): FundingTermsJson {
  const config = chainConfig();
  const escrow = config.escrow;
  if (!escrow)
    throw new AppError("not_configured", "No escrow contract is configured on this deployment.");
  const amounts = ms.map((m) => m.amountUnits);
  const evaluator = evaluatorAddress();
  const deadline = toSeconds(deal.deadlineAt);
  const funder = brand ?? (deal.brandWallet ? getAddress(deal.brandWallet) : null);
  return {
    chainId: config.chainId,
    escrow,
    usdc: requireUsdc(config),
    dealRef: dealRef(deal.id),
    dealKey: funder ? dealKey(funder, deal.id) : null,
    evaluator,
    deadline: Number(deadline),
    graceSeconds: Number(GRACE_PERIOD_SECONDS),
    amounts: amounts.map(String),
    total: unitsToDecimal(deal.budgetUnits),
    totalUnits: deal.budgetUnits.toString(),
    authorizationNonce: brand
      ? fundingNonce({
          chainId: config.chainId,
          escrow,
          dealRef: dealRef(deal.id),
          brand,
          evaluator,
          deadline,
          amounts,
        })
      : null,
  };
}

export type FundingCheck =
  | { status: "funded"; deal: Deal }
  | { status: "not_funded" }
  | { status: "mismatch"; problems: string[] };

/** The Funded event of the deal under `key`: from the given transaction's receipt, else from the logs. */
async function fundingEvent(
  key: Hex,
  txHash: Hex | undefined,
): Promise<{ txHash: Hex; block: bigint } | null> {
  const escrow = chainConfig().escrow as Address;
  if (txHash) {
    const receipt = await publicClient()
      .getTransactionReceipt({ hash: txHash })
      .catch((err) => {
        if (isTransportError(err)) throw chainUnavailable(err);
        return null; // unknown hash: not trusted, not fatal — the contract state decides
      });
    if (receipt?.status === "success") {
      const funded = parseEventLogs({
        abi: milestoneEscrowAbi,
        logs: receipt.logs.filter((l) => isAddressEqual(l.address, escrow)),
        eventName: "Funded",
      }).find((l) => l.args.dealKey.toLowerCase() === key.toLowerCase());
      if (funded) return { txHash, block: receipt.blockNumber };
    }
  }
  const events = await escrowEvents(key, null);
  const funded = events.find((e) => e.eventName === "Funded");
  return funded ? { txHash: funded.transactionHash, block: funded.blockNumber } : null;
}

/**
 * What the brand said about its funding: the wallet it funded from (`funder`) and the
 * transaction (`txHash`, only a hint for the explorer link).
 */
export type FundingReport = {
  txHash?: Hex;
  funder?: Address;
  /** The funder is the deal's deposit forwarder (lib/escrow/deposit.ts), which swept this. */
  deposit?: { refundAddress: Address; excess: bigint | null };
};

/**
 * The wallet whose escrow key holds this deal's funding: the one the brand names now, else
 * the one it named before (kept on the deal), else the wallet linked to its account. Null
 * when there is none. Never a wallet taken from the chain or from a transaction: anyone can
 * fund this deal's ref under their own key, and a reported hash may be a squatter's.
 */
async function fundingWallet(
  db: Db,
  deal: Deal,
  report: FundingReport,
): Promise<{ wallet: Address; named: boolean } | null> {
  if (report.funder) return { wallet: getAddress(report.funder), named: true };
  if (deal.brandWallet) return { wallet: getAddress(deal.brandWallet), named: false };
  const brand = await getUserById(db, deal.brandId);
  return brand?.walletAddress ? { wallet: getAddress(brand.walletAddress), named: false } : null;
}

/**
 * Checks the escrow holds exactly this deal under the brand's funding wallet's key (our
 * evaluator, its deadline, its milestone amounts in order) and, if so, opens the deal. A
 * wallet the brand names is kept on the unfunded deal, so the watcher later reads the same
 * key. `report.txHash` is only a hint for the explorer link: it is stored only when its own
 * receipt shows this deal's funding under that key.
 */
export async function syncFunding(
  db: Db,
  deal: Deal,
  report: FundingReport = {},
  actorId: string | null = null,
): Promise<FundingCheck> {
  let found = await fundingWallet(db, deal, report);
  if (
    found?.named &&
    deal.status === "unfunded" &&
    !(deal.brandWallet && isAddressEqual(getAddress(deal.brandWallet), found.wallet))
  )
    await setFundingWallet(db, deal.id, found.wallet);
  let onChain = found ? await readEscrowDeal(dealKey(found.wallet, deal.id)) : null;
  if (!onChain?.exists && deal.status === "unfunded") {
    // Not under the brand's wallet: perhaps swept from the deal's deposit address, whose
    // forwarder is the funder of its key (lib/escrow/deposit.ts).
    const deposit = await getDeposit(db, deal.id);
    if (deposit) {
      const forwarder = getAddress(deposit.address);
      const viaDeposit = await readEscrowDeal(dealKey(forwarder, deal.id));
      if (viaDeposit.exists) {
        found = { wallet: forwarder, named: false };
        onChain = viaDeposit;
        report = {
          ...report,
          deposit: report.deposit ?? {
            refundAddress: getAddress(deposit.refundAddress),
            excess: null,
          },
        };
      }
    }
  }
  if (!found || !onChain?.exists) return { status: "not_funded" };
  const escrowDeal = onChain;
  const { wallet } = found;
  const key = dealKey(wallet, deal.id);
  const ms = await listDealMilestones(db, deal.id);
  // The amounts the escrow holds (read when the counts agree; otherwise that is the problem).
  const held =
    escrowDeal.milestoneCount === ms.length ? await readEscrowMilestones(key, ms.length) : [];
  const termProblems = (d: Deal, list: Milestone[]): string[] => {
    const problems: string[] = [];
    if (!isAddressEqual(escrowDeal.evaluator, evaluatorAddress()))
      problems.push(`the evaluator is ${escrowDeal.evaluator}, not this service`);
    if (escrowDeal.deadline !== toSeconds(d.deadlineAt))
      problems.push("the deadline differs from the deal's");
    if (escrowDeal.milestoneCount !== list.length)
      problems.push(`${escrowDeal.milestoneCount} milestones instead of ${list.length}`);
    else
      list.forEach((m, i) => {
        if (held[i]?.amount !== m.amountUnits) problems.push(`milestone ${i + 1}'s amount differs`);
      });
    return problems;
  };
  const problems = termProblems(deal, ms);
  if (problems.length) return { status: "mismatch", problems };

  const event = await fundingEvent(key, report.txHash);
  const opened = await db.transaction(async (tx) => {
    // The terms again, under the deal's row lock: an edit of the unfunded deal (which
    // takes the same lock) may have changed them since they were compared above.
    const locked = await lockDeal(tx, deal.id);
    // Unfunded, or cancelled in the app before this funding was seen (a wallet's funding
    // that landed after the cancel): the escrow holds the money, so the deal is open again
    // and only the brand's on-chain cancel returns it early.
    const reopened = locked?.status === "cancelled" && !locked.fundedAt;
    if (!locked || (locked.status !== "unfunded" && !reopened)) return undefined;
    const now = termProblems(locked, await listDealMilestones(tx, deal.id));
    if (now.length) return { mismatch: now };
    const row = await markDealFunded(tx, deal.id, {
      escrowChainId: chainConfig().chainId,
      escrowAddress: chainConfig().escrow,
      brandWallet: wallet,
      fundingTxHash: event?.txHash ?? null,
      fundedBlock: event?.block ?? null,
    });
    if (row)
      await recordEvent(tx, {
        // A bonus's escrow deal (lib/settle/bonuses.ts): its parties learn it on the deal it
        // rewards.
        dealId: deal.parentDealId ?? deal.id,
        type: deal.parentDealId ? "bonus.funded" : "funded",
        actorId,
        data: {
          ...(deal.parentDealId ? { bonusId: deal.id, message: deal.bonusMessage } : {}),
          amount: unitsToDecimal(escrowDeal.funded),
          brandWallet: wallet,
          txHash: event?.txHash ?? null,
          // Swept from the deal's deposit address: where unreleased money goes back, and
          // the over-payment returned with the sweep.
          ...(report.deposit
            ? {
                via: "deposit",
                refundAddress: report.deposit.refundAddress,
                ...(report.deposit.excess !== null
                  ? { excess: unitsToDecimal(report.deposit.excess) }
                  : {}),
              }
            : {}),
        },
      });
    return row;
  });
  if (opened && "mismatch" in opened) return { status: "mismatch", problems: opened.mismatch };
  const current = opened ?? (await reloadDeal(db, deal.id));
  if (escrowDeal.cancelled) await syncRefunds(db, current);
  return { status: "funded", deal: current };
}

async function reloadDeal(db: Db, dealId: string): Promise<Deal> {
  const d = await getDeal(db, dealId);
  if (!d) throw new Error(`deal ${dealId} vanished`);
  return d;
}

/** Throws the right 409 for a funding check that did not open the deal. */
export function assertFunded(check: FundingCheck): Deal {
  if (check.status === "funded") return check.deal;
  if (check.status === "not_funded")
    throw new AppError(
      "not_funded",
      "The escrow holds nothing for this deal from its funding wallet yet. Fund it from your wallet (approve and fund, or a signed authorization) and report it naming that wallet (`brand`).",
    );
  throw new AppError(
    "invalid_state",
    `The escrow holds this deal with other terms: ${check.problems.join("; ")}. Cancel it from your wallet to get the money back.`,
    { details: { problems: check.problems } },
  );
}

/**
 * Records the creator on-chain (assignCreator, sent by the evaluator) once they took the
 * deal: from then on the brand can no longer cancel it. Resumes an earlier attempt rather
 * than sending a second one. If the brand cancelled on-chain first, the deal is cancelled.
 * The deal is assigned once the chain's confirmation depth is on top of the assignment (its
 * creator read at the head less that depth); an assignment recorded as confirmed that the
 * chain no longer has (a reorg: recheckAssignment) is sent again, the same signed bytes.
 */
export async function assignCreatorOnChain(db: Db, deal: Deal): Promise<Deal> {
  if (deal.assignedAt) return deal;
  const wallet = deal.creatorWallet ? getAddress(deal.creatorWallet) : null;
  if (!wallet) throw new Error(`deal ${deal.id} has no creator wallet to assign`);
  const depth = BigInt(chainConfig().confirmations);
  const settleFromChain = async (): Promise<Deal | null> => {
    // At a depth, as of the last final block: an assignment on the head alone may yet be
    // reorged out (its transaction, resumed below, waits for the depth).
    const final = depth > 0n ? await latestBlock().then((head) => head - depth) : undefined;
    if (final !== undefined && final < 0n) return null;
    const onChain = await readEscrowDeal(escrowKey(deal), final);
    if (onChain.cancelled) {
      await syncRefunds(db, deal);
      throw new AppError(
        "invalid_state",
        "The brand cancelled this deal before it was taken; its money went back to the brand.",
      );
    }
    if (onChain.creator && isAddressEqual(onChain.creator, wallet)) {
      return (await markDealAssigned(db, deal.id)) ?? null;
    }
    if (onChain.creator) throw new Error(`deal ${deal.id} is assigned to another wallet on-chain`);
    return null;
  };
  const done = await settleFromChain();
  if (done) return done;

  let row = deal.assignTxId ? await getChainTransaction(db, deal.assignTxId) : null;
  // Confirmed, and yet no creator on the chain: a reorg removed it (sent again just below).
  if (row?.status === "confirmed") row = await reopenIfRemoved(db, row);
  if (!row || row.status === "failed") {
    try {
      row = await recordTransaction(
        db,
        requireTreasury(),
        {
          to: chainConfig().escrow as Address,
          data: escrowCall.assignCreator(escrowKey(deal), wallet),
          purpose: `assign:${deal.id}`,
        },
        async (tx, recorded) => {
          await setAssignTx(tx, deal.id, recorded.id);
        },
      );
    } catch (err) {
      // "Would fail": most likely the brand cancelled a moment ago. The chain says.
      if (err instanceof AppError && err.code === "chain_unavailable") {
        const after = await settleFromChain();
        if (after) return after;
      }
      throw err;
    }
  }
  const sent = await resumeTransaction(db, row);
  if (sent.status === "submitted") throw chainUnavailable(new Error("assignment not mined yet"));
  const after = await settleFromChain();
  if (after) return after;
  throw new AppError(
    "chain_unavailable",
    "Recording you as the deal's creator on-chain did not go through. Try again in a moment.",
  );
}

/**
 * An assigned deal whose creator the chain no longer shows: a reorg removed the assignment
 * (final at once at depth 0, or a reorg deeper than the depth). Unassigned again and sent
 * again (assignCreatorOnChain), so its releases do not revert for want of a creator. One
 * read of the escrow; the deal as it is when its creator is there (or its escrow deal is
 * gone altogether: a funding reorged out is not an assignment's to repair).
 */
export async function recheckAssignment(
  db: Db,
  deal: Deal,
): Promise<{ deal: Deal; reassigned: boolean }> {
  if (!deal.assignedAt || !deal.creatorWallet) return { deal, reassigned: false };
  const onChain = await readEscrowDeal(escrowKey(deal));
  if (!onChain.exists || onChain.creator) return { deal, reassigned: false };
  log.warn("a reorg removed the creator's assignment; assigning again", {
    dealId: deal.id,
    assignTxId: deal.assignTxId,
  });
  const unassigned = await markDealUnassigned(db, deal.id);
  if (!unassigned) return { deal: await reloadDeal(db, deal.id), reassigned: false };
  return { deal: await assignCreatorOnChain(db, unassigned), reassigned: true };
}

/**
 * Mirrors refunds the escrow made (a cancel, or expired milestones) into the database:
 * those milestones become `refunded`, and a deal with nothing left becomes cancelled,
 * expired or completed.
 */
export async function syncRefunds(db: Db, deal: Deal): Promise<Deal> {
  if (!deal.brandWallet) return deal; // never funded: nothing in the escrow
  const key = escrowKey(deal);
  const ms = await listDealMilestones(db, deal.id);
  // One block's state: read apart, a cancel landing between the deal and its milestones
  // would show refunded milestones of a deal not cancelled (closed as `expired`).
  const at = await latestBlock();
  const onChain = await readEscrowDeal(key, at);
  if (!onChain.exists) return deal;
  const [states, recipient] = await Promise.all([
    readEscrowMilestones(key, Math.min(onChain.milestoneCount, ms.length), at),
    readRefundRecipient(key, at),
  ]);
  // Where the escrow sent them: the deal's refund recipient (a deposit's refund address).
  const refundTo = recipient ?? onChain.brand;
  const refundedIdx = states.flatMap((s, i) => (s.state === MilestoneState.Refunded ? [i] : []));
  if (refundedIdx.length) {
    const events = await escrowEvents(key, deal.fundedBlock);
    const hashOf = new Map<number, Hex>();
    for (const e of events)
      if (e.eventName === "Refunded")
        hashOf.set(Number((e.args as { index: bigint }).index), e.transactionHash);
    await db.transaction(async (tx) => {
      for (const i of refundedIdx) {
        const m = ms[i];
        if (!m || m.status === "paid" || m.status === "refunded") continue;
        if (await markMilestoneRefunded(tx, m.id, hashOf.get(i) ?? null))
          await recordEvent(tx, {
            dealId: deal.id,
            milestoneId: m.id,
            type: "refunded",
            data: {
              amount: unitsToDecimal(m.amountUnits),
              to: refundTo,
              txHash: hashOf.get(i) ?? null,
            },
          });
      }
    });
  }
  const after = await listDealMilestones(db, deal.id);
  const open = after.filter((m) => m.status !== "paid" && m.status !== "refunded");
  if (open.length > 0 && !onChain.cancelled) return reloadDeal(db, deal.id);
  const anyPaid = after.some((m) => m.status === "paid");
  const status = onChain.cancelled
    ? "cancelled"
    : anyPaid && refundedIdx.length === 0
      ? "completed"
      : "expired";
  const closed = await db.transaction(async (tx) => {
    const row = await closeDeal(tx, deal.id, status);
    if (row) await recordEvent(tx, { dealId: deal.id, type: status });
    return row;
  });
  return closed ?? reloadDeal(db, deal.id);
}

/** When unreleased milestones of this deal become refundable to the brand (chain time). */
export const refundableAt = (deal: Deal) => toSeconds(deal.deadlineAt) + GRACE_PERIOD_SECONDS;

/**
 * Returns every milestone still locked past deadline + grace to the brand (refundExpired,
 * which anyone may call and which pays only the brand; the service pays the gas). The
 * contract refunds a milestone at most once, so a retry can never pay twice.
 */
export async function refundExpired(db: Db, deal: Deal): Promise<Deal> {
  const now = await chainNow();
  if (now <= refundableAt(deal))
    throw new AppError(
      "invalid_state",
      `Unreleased milestones become refundable after ${new Date(Number(refundableAt(deal)) * 1000).toISOString()} (the deal's deadline plus the grace period).`,
    );
  if (!deal.fundedAt || !deal.brandWallet)
    throw new AppError("not_funded", "This deal was never funded.");
  const key = escrowKey(deal);
  const onChain = await readEscrowDeal(key);
  if (!onChain.exists) throw new AppError("not_funded", "This deal was never funded.");
  const states = await readEscrowMilestones(key, onChain.milestoneCount);
  for (const [index, s] of states.entries()) {
    if (s.state !== MilestoneState.Locked) continue;
    const row = await recordTransaction(db, requireTreasury(), {
      to: chainConfig().escrow as Address,
      data: escrowCall.refundExpired(key, index),
      purpose: `refund:${deal.id}:${index}`,
    }).catch(async (err: unknown) => {
      // Refused: the milestone left `Locked` since it was read (the brand's own cancel, a
      // release, another refund) — the escrow says what happened, syncRefunds mirrors it.
      if (!(err instanceof WouldRevert)) throw err;
      if ((await readEscrowMilestone(key, index)).state === MilestoneState.Locked) throw err;
      return null;
    });
    if (!row) continue;
    const done = await resumeTransaction(db, row);
    if (done.status !== "confirmed")
      log.warn("expired refund not confirmed yet", { dealId: deal.id, index, status: done.status });
  }
  return syncRefunds(db, deal);
}

/**
 * Deals the watcher looks at: unfunded (a funding nobody reported), funded and unfinished,
 * and cancelled before any funding was seen while a funding may still have reached the
 * escrow after that cancel (a wallet's, not through the app: the escrow takes none past the
 * deadline; the grace period after it leaves the watcher time to have looked) — least
 * recently looked at first (the watcher touches each one it checks), so successive runs go
 * round all of them.
 */
export async function dealsToWatch(
  db: Db,
  opts: { dealId?: string; limit?: number } = {},
): Promise<Deal[]> {
  return listDealsToWatch(db, {
    dealId: opts.dealId,
    limit: opts.limit ?? 100,
    cancelledDeadlineAfter: new Date(Date.now() - Number(GRACE_PERIOD_SECONDS) * 1000),
  });
}
