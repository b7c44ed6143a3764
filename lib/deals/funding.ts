import { type Address, encodeFunctionData, getAddress, type Hex, parseSignature } from "viem";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import { findVisibleDeal, listDealMilestones } from "@/db/queries/deals";
import { cancelUnfundedDeal } from "@/db/queries/escrow";
import type { Deal } from "@/db/schema";
import { chainConfig, requireEscrow } from "@/lib/chain/config";
import { relayProvider } from "@/lib/chain/relay";
import { gelatoRelayer } from "@/lib/chain/relayer";
import { recordTransaction, resumeTransaction } from "@/lib/chain/sender";
import { type Caller, renderDeal } from "@/lib/deals/deals";
import type { FundingAuthorizationInput } from "@/lib/deals/schemas";
import type { DealJson } from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { readEscrowDeal } from "@/lib/escrow/chain";
import {
  assertFunded,
  type FundingTermsJson,
  fundingTerms,
  refundExpired,
  syncFunding,
  syncRefunds,
} from "@/lib/escrow/deals";
import { dealKey } from "@/lib/escrow/onchain";
import { recordEvent } from "@/lib/events/events";

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

/** GET /api/deals/:id/funding: exactly what to fund the escrow with. */
export async function getFundingTerms(
  db: Db,
  caller: Caller,
  dealId: string,
  brand?: string,
): Promise<FundingTermsJson & { status: Deal["status"] }> {
  const deal = await brandDeal(db, caller, dealId);
  const terms = fundingTerms(
    deal,
    await listDealMilestones(db, deal.id),
    brand ? (getAddress(brand) as Address) : undefined,
  );
  return { ...terms, status: deal.status };
}

/** POST /api/deals/:id/funding: the deal opens once the contract holds exactly its terms. */
export async function confirmFunding(
  db: Db,
  caller: Caller,
  dealId: string,
  txHash?: string,
): Promise<DealJson> {
  const deal = await brandDeal(db, caller, dealId);
  if (deal.status !== "unfunded") return renderDeal(db, deal);
  return renderDeal(
    db,
    assertFunded(await syncFunding(db, deal, txHash as Hex | undefined, caller.id)),
  );
}

/**
 * POST /api/deals/:id/funding/authorization: gasless funding. The brand signed an EIP-3009
 * ReceiveWithAuthorization whose nonce binds the deal's terms (see fundingNonce); the
 * relayer submits `fundWithAuthorization`, paying the gas. The token accepts that nonce
 * once and the escrow refuses a second funding of a deal, so a retry cannot move money twice.
 */
export async function fundWithAuthorization(
  db: Db,
  caller: Caller,
  dealId: string,
  input: FundingAuthorizationInput,
): Promise<DealJson> {
  const deal = await brandDeal(db, caller, dealId);
  if (deal.status !== "unfunded") return renderDeal(db, deal);
  const already = await syncFunding(db, deal);
  if (already.status !== "not_funded") return renderDeal(db, assertFunded(already));

  const config = chainConfig();
  const escrow = requireEscrow(config);
  const terms = fundingTerms(deal, await listDealMilestones(db, deal.id));
  try {
    parseSignature(input.signature as Hex);
  } catch {
    throw new AppError("invalid_signature", "The authorization's signature is malformed.");
  }
  const data = encodeFunctionData({
    abi: milestoneEscrowAbi,
    functionName: "fundWithAuthorization",
    args: [
      dealKey(deal.id),
      getAddress(input.brand),
      terms.evaluator,
      BigInt(terms.deadline),
      terms.amounts.map(BigInt),
      BigInt(input.validAfter),
      BigInt(input.validBefore),
      input.signature as Hex,
    ],
  });
  const provider = relayProvider(config);
  if (provider === "local") {
    if (!config.sponsorKey)
      throw new AppError("not_configured", "The local relayer has no sponsor key.");
    // recordTransaction estimates gas first: a bad signature or wrong terms fail there
    // ("would fail"), before anything is recorded or sent.
    const row = await recordTransaction(db, config.sponsorKey, {
      to: escrow,
      data,
      purpose: `funding:${deal.id}`,
    }).catch((err) => {
      if (
        err instanceof AppError &&
        err.code === "chain_unavailable" &&
        /would fail/.test(err.message)
      )
        throw new AppError(
          "invalid_signature",
          "The escrow refused this authorization (wrong signer, terms, amount or validity). Nothing was sent.",
          { cause: err },
        );
      throw err;
    });
    await resumeTransaction(db, row);
  } else if (provider === "gelato") {
    await gelatoRelayer().sponsoredCall({ chainId: config.chainId, target: escrow, data });
  } else {
    throw new AppError("not_configured", "Gasless funding needs a relayer on this deployment.");
  }
  return renderDeal(db, assertFunded(await syncFunding(db, deal)));
}

/**
 * POST /api/deals/:id/cancel: an untaken deal ends and its money goes back. Unfunded: at
 * once. Funded: only the brand's own call to the escrow can return the money (the service
 * can never hold it back, nor take it), so this confirms that call from the chain.
 */
export async function cancelDeal(db: Db, caller: Caller, dealId: string): Promise<DealJson> {
  let deal = await brandDeal(db, caller, dealId);
  if (deal.status === "cancelled") return renderDeal(db, deal);
  if (deal.status === "unfunded") {
    const check = await syncFunding(db, deal);
    if (check.status === "funded") deal = check.deal;
    else {
      const cancelled = await db.transaction(async (tx) => {
        const row = await cancelUnfundedDeal(tx, deal.id);
        if (row) await recordEvent(tx, { dealId: deal.id, type: "cancelled", actorId: caller.id });
        return row;
      });
      return renderDeal(db, cancelled ?? deal);
    }
  }
  if (deal.creatorId || deal.status !== "open")
    throw new AppError(
      "invalid_state",
      "A creator has taken this deal, so it cannot be cancelled; unreleased milestones come back to you after the deadline.",
    );
  const onChain = await readEscrowDeal(deal.id);
  if (onChain.cancelled) return renderDeal(db, await syncRefunds(db, deal));
  throw new AppError(
    "invalid_state",
    "Cancel it from your wallet: call cancel on the escrow (only the brand's own call can return the money), then report it here.",
    {
      details: {
        escrow: requireEscrow(),
        dealKey: dealKey(deal.id),
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
