import { randomUUID } from "node:crypto";
import { type Address, encodeFunctionData, getAddress, type Hex, parseSignature } from "viem";
import { z } from "zod";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { Db, DbOrTx } from "@/db/client";
import { findLatestByPurpose } from "@/db/queries/chain-transactions";
import { findVisibleDeal, listDealMilestones } from "@/db/queries/deals";
import { getDeposit } from "@/db/queries/deposits";
import {
  cancelUnfundedDeal,
  getDeal,
  holdForFunding,
  releaseFundingHold,
} from "@/db/queries/escrow";
import { type Deal, dealStatuses } from "@/db/schema";
import { chainConfig, requireEscrow } from "@/lib/chain/config";
import { relayProvider } from "@/lib/chain/relay";
import { gelatoRelayer } from "@/lib/chain/relayer";
import { recordTransaction, resumeTransaction, WouldRevert } from "@/lib/chain/sender";
import { type Caller, renderDeal } from "@/lib/deals/deals";
import type { FundingAuthorizationInput } from "@/lib/deals/schemas";
import type { DealJson, FundingAuthorizationResult } from "@/lib/deals/serialize";
import { env } from "@/lib/env";
import { AppError, notFound } from "@/lib/errors";
import { escrowKey, readEscrowDeal } from "@/lib/escrow/chain";
import {
  assertFunded,
  fundingTerms,
  fundingTermsBase,
  refundExpired,
  syncFunding,
  syncRefunds,
} from "@/lib/escrow/deals";
import {
  ChainReadNeeded,
  cancelThroughForwarder,
  type DepositJson,
  depositJson,
  depositSchema,
  ensureDeposit,
  watchDeposit,
} from "@/lib/escrow/deposit";
import { dealRef } from "@/lib/escrow/onchain";
import { recordEvent } from "@/lib/events/events";
import { requestWaitMs } from "@/lib/settle/advance";

// The brand's side of the escrow, behind the deals API: the funding terms, reporting a
// funding (checked against the contract), gasless funding through the relayer, cancelling
// an untaken deal and reclaiming expired milestones.

/** The caller's own deal as its brand; anyone else gets 404 (or 403 for the creator). */
async function brandDeal(db: Db, caller: Caller, dealId: string): Promise<Deal> {
  const deal = await findVisibleDeal(db, caller, dealId);
  if (!deal) throw notFound("Deal");
  if (deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can manage its escrow.");
  return deal;
}

/**
 * GET /api/deals/:id/funding: exactly what to fund the escrow with, and the deal's deposit
 * address (given out here for the refund address named before, else the brand's own wallet;
 * null when there is neither, or for a deal past unfunded that never had one).
 */
export async function getFundingTerms(
  db: Db,
  caller: Caller,
  dealId: string,
  brand?: string,
  options: { databaseOnly?: boolean } = {},
): Promise<FundingTermsAnswer> {
  const deal = await brandDeal(db, caller, dealId);
  const terms = fundingTerms(
    deal,
    await listDealMilestones(db, deal.id),
    brand ? (getAddress(brand) as Address) : undefined,
  );
  const deposit = chainConfig().depositFactory
    ? await ensureDeposit(db, deal, undefined, options)
    : null;
  return { ...terms, status: deal.status, deposit: deposit ? depositJson(deposit) : null };
}

/**
 * The same answer read from the database alone, for the deal page's first HTML (a page render
 * never waits on the chain); null when only the chain can give it (ensureDeposit would read
 * the replaced deposit address's balance): the page then asks GET /funding.
 */
export async function getFundingTermsFromDatabase(db: Db, caller: Caller, dealId: string) {
  try {
    return await getFundingTerms(db, caller, dealId, undefined, { databaseOnly: true });
  } catch (err) {
    if (err instanceof ChainReadNeeded) return null;
    throw err;
  }
}

/**
 * POST /api/deals/:id/funding/deposit: the deal's deposit address for `refundAddress` (where
 * an over-payment, a deposit to a cancelled deal and every unreleased amount go back; default:
 * the one named before, else the brand's wallet). The address binds the deal's terms and the
 * refund address; it changes only while nothing was received (then 409 invalid_state).
 */
export async function requestDeposit(
  db: Db,
  caller: Caller,
  dealId: string,
  input: { refundAddress?: string },
): Promise<DepositJson> {
  const deal = await brandDeal(db, caller, dealId);
  const refundAddress = input.refundAddress ? getAddress(input.refundAddress) : undefined;
  const row = await ensureDeposit(db, deal, refundAddress);
  if (!row)
    throw new AppError(
      deal.status === "unfunded" ? "wallet_required" : "invalid_state",
      deal.status === "unfunded"
        ? "Name a refundAddress: your account has no wallet to return money to."
        : "This deal is no longer waiting for its funding.",
    );
  return depositJson(row);
}

/**
 * POST /api/deals/:id/funding: the deal opens once the contract holds exactly its terms
 * under the brand's funding wallet's key: the wallet named (`brand`), else the one named
 * before or linked to the account. The hash is only a hint, never a wallet.
 */
export async function confirmFunding(
  db: Db,
  caller: Caller,
  dealId: string,
  report: { txHash?: string; brand?: string } = {},
): Promise<DealJson> {
  let deal = await brandDeal(db, caller, dealId);
  if (deal.status === "cancelled" && !deal.fundedAt)
    return reportOnCancelled(db, deal, report, caller.id);
  if (deal.status !== "unfunded") return renderDeal(db, deal);
  // A deposit address that holds the total is swept now rather than at the next reconcile.
  const deposit = await getDeposit(db, deal.id);
  if (deposit && chainConfig().depositFactory) {
    await watchDeposit(db, deal, deposit, { received: 0, swept: 0, returned: 0, failed: 0 });
    deal = (await findVisibleDeal(db, caller, dealId)) ?? deal;
    if (deal.status !== "unfunded") return renderDeal(db, deal);
  }
  const check = await syncFunding(
    db,
    deal,
    {
      txHash: report.txHash as Hex | undefined,
      funder: report.brand ? getAddress(report.brand) : undefined,
    },
    caller.id,
  );
  return renderDeal(db, assertFunded(check));
}

/**
 * A funding reported for a deal cancelled before any funding was seen (a wallet's funding
 * that landed after the cancel): holding it, the escrow opens the deal again; else the deal
 * stays cancelled.
 */
async function reportOnCancelled(
  db: Db,
  deal: Deal,
  report: { txHash?: string; brand?: string },
  actorId: string,
): Promise<DealJson> {
  const check = await syncFunding(
    db,
    deal,
    {
      txHash: report.txHash as Hex | undefined,
      funder: report.brand ? getAddress(report.brand) : undefined,
    },
    actorId,
  );
  return renderDeal(db, check.status === "funded" ? check.deal : deal);
}

/**
 * How long a relayed funding holds the deal: the relay's worst case (the estimate, the
 * send, waiting for its receipt, reading the escrow) with room to spare. A crashed request's
 * hold runs out after it; its transaction, if recorded, still counts as in flight
 * (fundingInFlight) and reconcile finishes it.
 */
const fundingHoldSeconds = () => 2 * env().TX_RECEIPT_TIMEOUT_SECONDS + 60;

const fundingInProgress = () =>
  new AppError(
    "funding_in_progress",
    "A funding of this deal is on its way to the escrow. Once it is settled the deal is open (cancel it then from your wallet) or nothing was moved (cancel it then here).",
  );

/**
 * A relayed funding of the deal is in flight: a hold that has not run out, or our
 * relayer's transaction recorded and not yet mined (its request may have died).
 */
export async function fundingInFlight(db: DbOrTx, deal: Deal, now = Date.now()): Promise<boolean> {
  if (deal.fundingHeldUntil && deal.fundingHeldUntil.getTime() > now) return true;
  const sent = await findLatestByPurpose(db, {
    chainId: chainConfig().chainId,
    purpose: `funding:${deal.id}`,
    statuses: ["pending", "submitted"],
  });
  return sent !== null;
}

/**
 * A funding call found the deal no longer unfunded. Open (or further): the deal, as a
 * retry's answer. Cancelled before any funding was seen: the escrow decides — holding this
 * funder's money, the deal opens again; else nothing was sent and the deal stays cancelled.
 */
async function answerSettled(
  db: Db,
  deal: Deal,
  funder: Address,
  actorId: string,
): Promise<DealJson> {
  if (deal.status === "cancelled" && !deal.fundedAt) {
    const check = await syncFunding(db, deal, { funder }, actorId);
    if (check.status === "funded") return renderDeal(db, check.deal);
    throw new AppError("invalid_state", "This deal was cancelled, so nothing was sent.");
  }
  return renderDeal(db, deal);
}

/**
 * POST /api/deals/:id/funding/authorization: gasless funding. The brand signed an EIP-3009
 * ReceiveWithAuthorization whose nonce binds the deal's terms (see fundingNonce); the
 * relayer submits `fundWithAuthorization`, paying the gas. The token accepts that nonce
 * once and the escrow refuses a second funding of a deal, so a retry cannot move money twice.
 *
 * The funding holds the deal from the statement that finds it unfunded until it resolves
 * (holdForFunding), so a cancel cannot slip between that check and the relay: it answers 409
 * funding_in_progress meanwhile. Whatever the relay's outcome — sent, refused before sending
 * ("would fail") or reverted — the escrow is read before answering: a deal funded under this
 * funder's key (by this attempt or a concurrent one with the same authorization) answers 200,
 * never invalid_signature.
 */
export async function fundWithAuthorization(
  db: Db,
  caller: Caller,
  dealId: string,
  input: FundingAuthorizationInput,
): Promise<FundingAuthorizationResult> {
  const deal = await brandDeal(db, caller, dealId);
  // The signer is the funder: the escrow keys the deal by it, and it becomes the deal's
  // funding wallet (kept, so the watcher finds this funding if the answer is lost).
  const funder = getAddress(input.brand);
  if (deal.status !== "unfunded") return { deal: await answerSettled(db, deal, funder, caller.id) };
  try {
    parseSignature(input.signature as Hex);
  } catch {
    throw new AppError("invalid_signature", "The authorization's signature is malformed.");
  }
  const already = await syncFunding(db, deal, { funder }, caller.id);
  if (already.status !== "not_funded") return { deal: await renderDeal(db, assertFunded(already)) };

  const config = chainConfig();
  const escrow = requireEscrow(config);
  const provider = relayProvider(config);
  if (provider === "local" && !config.sponsorKey)
    throw new AppError("not_configured", "The local relayer has no sponsor key.");
  if (provider !== "local" && provider !== "gelato")
    throw new AppError("not_configured", "Gasless funding needs a relayer on this deployment.");

  const attempt = randomUUID();
  const held = await holdForFunding(db, deal.id, {
    attempt,
    funder,
    seconds: fundingHoldSeconds(),
  });
  if (!held) {
    const now = await getDeal(db, deal.id);
    if (!now) throw notFound("Deal");
    // Still unfunded: another wallet's funding holds it.
    if (now.status === "unfunded") throw fundingInProgress();
    return { deal: await answerSettled(db, now, funder, caller.id) };
  }

  // The terms as they are under the hold: an edit of the amounts or the deadline waits for
  // the funding to settle (lib/deals/edit.ts), so the relay sends exactly these.
  const terms = fundingTerms(held, await listDealMilestones(db, deal.id));
  const data = encodeFunctionData({
    abi: milestoneEscrowAbi,
    functionName: "fundWithAuthorization",
    args: [
      dealRef(deal.id),
      funder,
      terms.evaluator,
      BigInt(terms.deadline),
      terms.amounts.map(BigInt),
      BigInt(input.validAfter),
      BigInt(input.validBefore),
      input.signature as Hex,
    ],
  });

  // What the relay did: "refused" (nothing sent: the estimate said it would fail),
  // "mined" (a receipt, success or revert), "unconfirmed" (sent, no receipt yet).
  let outcome: "refused" | "mined" | "unconfirmed";
  let failure: unknown = null;
  let txHash: string | null = null;
  try {
    if (provider === "local") {
      // recordTransaction estimates gas first: a bad signature or wrong terms fail there
      // ("would fail"), before anything is recorded or sent.
      const row = await recordTransaction(db, config.sponsorKey as Hex, {
        to: escrow,
        data,
        purpose: `funding:${deal.id}`,
      });
      txHash = row.hash;
      // Waited for within the request's budget on the chain; past it the answer is 202.
      const sent = await resumeTransaction(db, row, requestWaitMs());
      txHash = sent.hash;
      outcome = sent.status === "confirmed" || sent.status === "failed" ? "mined" : "unconfirmed";
    } else {
      await gelatoRelayer().sponsoredCall({ chainId: config.chainId, target: escrow, data });
      outcome = "unconfirmed";
    }
  } catch (err) {
    outcome = err instanceof WouldRevert ? "refused" : "unconfirmed";
    failure = err;
  }

  // The escrow decides, not the relay's answer.
  let check = await syncFunding(db, deal, { funder }, caller.id).catch((err) => {
    if (outcome === "unconfirmed") throw failure ?? err; // the hold stays until it runs out
    throw err;
  });
  if (check.status === "not_funded" && outcome === "refused") {
    // Refused because a concurrent post of the same authorization is being mined: the node
    // estimated against a state that holds it (DealExists, or the token's nonce used) while the
    // latest block does not yet. That attempt's transaction is recorded: wait for it, then ask
    // the escrow again.
    const other = await findLatestByPurpose(db, {
      chainId: config.chainId,
      purpose: `funding:${deal.id}`,
    });
    if (other) {
      if (other.status === "pending" || other.status === "submitted")
        await resumeTransaction(db, other);
      check = await syncFunding(db, deal, { funder }, caller.id);
    }
  }
  if (check.status === "funded") return { deal: await renderDeal(db, check.deal) };
  if (outcome === "unconfirmed") {
    // Sent (or perhaps sent: the node failed) and not mined yet: the hold stays, reconcile
    // opens the deal once the escrow holds it (and announces it: the funded event).
    if (failure) throw failure;
    const now = await getDeal(db, deal.id);
    if (!now) throw notFound("Deal");
    return {
      deal: await renderDeal(db, now),
      funding: { status: "submitted", txHash },
      poll: `/api/deals/${deal.id}`,
    };
  }
  // Refused or reverted, and the escrow holds nothing under this funder's key (or other
  // terms): nothing was moved, the hold ends.
  await releaseFundingHold(db, deal.id, attempt);
  if (check.status === "mismatch") assertFunded(check);
  throw new AppError(
    "invalid_signature",
    "The escrow refused this authorization (wrong signer, terms, amount or validity). No money was moved.",
    { cause: failure ?? undefined },
  );
}

/**
 * POST /api/deals/:id/cancel: an untaken deal ends and its money goes back. Unfunded: at
 * once, once the escrow is read (a funding from a wallet may be there) and while no relayed
 * funding holds the deal (409 funding_in_progress). Funded: only the brand's own call to the
 * escrow can return the money (the service can never hold it back, nor take it), so this
 * confirms that call from the chain. A deal cancelled here before a funding landed (a
 * wallet's, not through the app) is opened again from the escrow (here, by reconcile, or by
 * reporting the funding), and its money comes back the same way: the brand's cancel from its
 * wallet (409 invalid_state says what to call), or /refund after the deadline plus grace.
 */
export async function cancelDeal(db: Db, caller: Caller, dealId: string): Promise<DealJson> {
  let deal = await brandDeal(db, caller, dealId);
  if (deal.status === "cancelled") {
    if (deal.fundedAt) return renderDeal(db, deal);
    const check = await syncFunding(db, deal, {}, caller.id);
    if (check.status !== "funded") return renderDeal(db, deal);
    deal = check.deal; // the escrow holds it after all: open again
  }
  for (let round = 0; deal.status === "unfunded"; round++) {
    if (await fundingInFlight(db, deal)) throw fundingInProgress();
    const check = await syncFunding(db, deal);
    if (check.status === "funded") {
      deal = check.deal;
      break;
    }
    const cancelled = await db.transaction(async (tx) => {
      const row = await cancelUnfundedDeal(tx, deal.id);
      if (row) await recordEvent(tx, { dealId: deal.id, type: "cancelled", actorId: caller.id });
      return row;
    });
    if (cancelled) return renderDeal(db, cancelled);
    // A funding took the hold since, or opened the deal: look again.
    const now = await getDeal(db, deal.id);
    if (!now) throw notFound("Deal");
    if (now.status === "unfunded" && round > 0) throw fundingInProgress();
    deal = now;
  }
  if (deal.status === "cancelled") return renderDeal(db, deal);
  if (deal.status === "expired" || deal.status === "completed")
    throw new AppError("invalid_state", "This deal has ended: there is nothing left to cancel.");
  if (deal.creatorId || deal.status !== "open")
    throw new AppError(
      "invalid_state",
      "A creator has taken this deal, so it cannot be cancelled; unreleased milestones come back to you after the deadline.",
    );
  const key = escrowKey(deal);
  const onChain = await readEscrowDeal(key);
  if (onChain.cancelled) return renderDeal(db, await syncRefunds(db, deal));
  // Funded from its deposit address: the forwarder cancels (to the refund address).
  const viaDeposit = await cancelThroughForwarder(db, deal);
  if (viaDeposit) return renderDeal(db, viaDeposit);
  throw new AppError(
    "invalid_state",
    "Cancel it from your wallet: call cancel on the escrow (only the brand's own call can return the money), then report it here.",
    {
      details: {
        escrow: requireEscrow(),
        dealKey: key,
        function: "cancel(bytes32)",
        brandWallet: onChain.brand,
      },
    },
  );
}

/** POST /api/deals/:id/refund: milestones still locked past deadline + grace go back to the brand. */
export async function refundExpiredMilestones(
  db: Db,
  caller: Caller,
  dealId: string,
): Promise<DealJson> {
  const deal = await brandDeal(db, caller, dealId);
  if (!deal.fundedAt) throw new AppError("not_funded", "This deal was never funded.");
  return renderDeal(db, await refundExpired(db, deal));
}

export const fundingTermsSchema = fundingTermsBase
  .extend({
    status: z.enum(dealStatuses),
    deposit: depositSchema
      .nullable()
      .describe(
        "The deal's deposit address (null: the brand has no wallet and named no refund address, or the deal never had one)",
      ),
  })
  .meta({ id: "FundingTerms" });
export const fundingTermsResponse = z.object({ funding: fundingTermsSchema });
export type FundingTermsAnswer = z.infer<typeof fundingTermsSchema>;
