import { type Address, type Hex, maxUint256, type PrivateKeyAccount } from "viem";
import { expect } from "vitest";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as authorizationRoute from "@/app/api/deals/[id]/funding/authorization/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as refundRoute from "@/app/api/deals/[id]/refund/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { pollReceipt } from "@/lib/chain/sender";
import { readEscrowDeal } from "@/lib/escrow/chain";
import { dealKey, receiveAuthorizationTypedData } from "@/lib/escrow/onchain";
import { unitsToDecimal } from "@/lib/money";
import { walletClientFor } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import type { TestUser } from "../helpers/users";

// The brand's funding moves, through the app's real handlers and from the brand's own
// wallet, and the one comparison every escrow-convergence test makes: the API's view of a
// deal's money (status, funded, locked, released, refunded) against the escrow's, read
// on-chain under the brand wallet's key. Shared by test/escrow/funding-race.test.ts and
// test/escrow/convergence.property.test.ts.

export type DealRef = { id: string; brand: TestUser; wallet: PrivateKeyAccount };

/** A new unfunded deal of `brand`'s (amounts in whole USDC); `deadline` ISO, else the default. */
export const createDeal = (brand: TestUser, amounts: number[], deadline?: string) =>
  createDealFor(brand, amounts, { title: "Convergence campaign", deadline });

export type Terms = {
  dealRef: Hex;
  evaluator: Address;
  deadline: number;
  amounts: string[];
  totalUnits: string;
};

export async function termsOf(d: DealRef): Promise<Terms> {
  const res = await call(fundingRoute.GET, { token: d.brand.token, params: { id: d.id } });
  if (res.status !== 200) throw new Error(`funding terms: ${JSON.stringify(res.body)}`);
  return res.body.funding;
}

/**
 * The body of POST …/funding/authorization: the brand wallet's signed EIP-3009 authorization,
 * valid until `validBefore` (unix seconds of the chain's clock; default: a day from now).
 */
export async function signedAuthorization(d: DealRef, terms?: Terms, validBefore?: bigint) {
  const t = terms ?? (await termsOf(d));
  validBefore ??= BigInt(Math.floor(Date.now() / 1000) + 24 * 3600);
  const typed = receiveAuthorizationTypedData({
    chainId: chainConfig().chainId,
    escrow: chainConfig().escrow as Address,
    usdc: chainConfig().usdc as Address,
    dealRef: t.dealRef,
    brand: d.wallet.address,
    evaluator: t.evaluator,
    deadline: BigInt(t.deadline),
    amounts: t.amounts.map(BigInt),
    validAfter: 0n,
    validBefore,
  });
  return {
    brand: d.wallet.address,
    validAfter: 0,
    validBefore: Number(validBefore),
    signature: await d.wallet.signTypedData(typed),
  };
}

export const postAuthorization = (d: DealRef, body: unknown) =>
  call(authorizationRoute.POST, { token: d.brand.token, params: { id: d.id }, body });

export const postCancel = (d: DealRef) =>
  call(cancelRoute.POST, { method: "POST", token: d.brand.token, params: { id: d.id } });

export const postRefund = (d: DealRef) =>
  call(refundRoute.POST, { method: "POST", token: d.brand.token, params: { id: d.id } });

export const postFundingReport = (d: DealRef, body: { txHash?: Hex; brand?: Address } = {}) =>
  call(fundingRoute.POST, { token: d.brand.token, params: { id: d.id }, body });

export async function apiDeal(d: DealRef) {
  const res = await call(dealRoute.GET, { token: d.brand.token, params: { id: d.id } });
  if (res.status !== 200) throw new Error(`get deal: ${JSON.stringify(res.body)}`);
  return res.body.deal as {
    status: string;
    escrow: { funded: boolean; locked: string; released: string; refunded: string };
  };
}

/**
 * The brand's wallet itself calls approve (once) and fund(dealRef, …): a funding the app
 * did not send and has not been told about. Resolves to the receipt's status.
 */
export async function fundFromWallet(d: DealRef, terms?: Terms): Promise<"success" | "reverted"> {
  const t = terms ?? (await termsOf(d));
  const wallet = walletClientFor(d.wallet);
  const { escrow, usdc } = chainConfig();
  const allowance = await publicClient().readContract({
    address: usdc as Address,
    abi: mockUsdcAbi,
    functionName: "allowance",
    args: [d.wallet.address, escrow as Address],
  });
  if (allowance < BigInt(t.totalUnits))
    await pollReceipt(
      await wallet.writeContract({
        address: usdc as Address,
        abi: mockUsdcAbi,
        functionName: "approve",
        args: [escrow as Address, maxUint256],
      }),
      30_000,
    );
  // Sent without estimating (a fixed gas limit), so a funding the escrow refuses is mined
  // and reverts like any wallet's would, instead of failing in the estimate.
  const hash = await wallet.writeContract({
    address: escrow as Address,
    abi: milestoneEscrowAbi,
    functionName: "fund",
    args: [t.dealRef, t.evaluator, BigInt(t.deadline), t.amounts.map(BigInt)],
    gas: 600_000n,
  });
  const receipt = await pollReceipt(hash, 30_000);
  if (!receipt) throw new Error("fund: no receipt");
  return receipt.status;
}

/** The brand's wallet calls escrow.cancel(key) itself (the only way its money comes back early). */
export async function cancelFromWallet(d: DealRef): Promise<"success" | "reverted"> {
  const hash = await walletClientFor(d.wallet).writeContract({
    address: chainConfig().escrow as Address,
    abi: milestoneEscrowAbi,
    functionName: "cancel",
    args: [dealKey(d.wallet.address, d.id)],
    gas: 600_000n,
  });
  const receipt = await pollReceipt(hash, 30_000);
  if (!receipt) throw new Error("cancel: no receipt");
  return receipt.status;
}

/** The escrow's deal under the brand wallet's key (the only key that is this deal's). */
export const escrowOf = (d: DealRef) => readEscrowDeal(dealKey(d.wallet.address, d.id));

export type View = {
  status: string;
  funded: boolean;
  locked: string;
  released: string;
  refunded: string;
};

/**
 * What the API must say about a deal given the escrow under its brand wallet's key: no deal
 * there, nothing funded (the app's status unfunded or cancelled — `appStatus` is kept); else
 * funded, the escrow's amounts, and the status the escrow implies (cancelled on-chain, open
 * while nobody took it and money is locked, expired once everything went back after the
 * deadline).
 */
export function expectedView(
  onChain: Awaited<ReturnType<typeof readEscrowDeal>>,
  appStatus: string,
): View {
  if (!onChain.exists)
    return {
      status: appStatus === "cancelled" ? "cancelled" : "unfunded",
      funded: false,
      locked: "0.000000",
      released: "0.000000",
      refunded: "0.000000",
    };
  // A cancel after every milestone went back (refundExpired) moves nothing: the deal stays
  // expired.
  const status = onChain.cancelled
    ? onChain.locked === 0n && appStatus === "expired"
      ? "expired"
      : "cancelled"
    : onChain.locked === 0n
      ? onChain.released > 0n
        ? "completed"
        : "expired"
      : onChain.creator
        ? "active"
        : "open";
  return {
    status,
    funded: true,
    locked: unitsToDecimal(onChain.locked),
    released: unitsToDecimal(onChain.released),
    refunded: unitsToDecimal(onChain.refunded),
  };
}

export function viewOf(deal: Awaited<ReturnType<typeof apiDeal>>): View {
  return {
    status: deal.status,
    funded: deal.escrow.funded,
    locked: deal.escrow.locked,
    released: deal.escrow.released,
    refunded: deal.escrow.refunded,
  };
}

/** The API's view of the deal equals the escrow's. */
export async function expectAgrees(d: DealRef, note = ""): Promise<View> {
  const [deal, onChain] = await Promise.all([apiDeal(d), escrowOf(d)]);
  const view = viewOf(deal);
  expect(view, `deal ${d.id} ${note}`).toEqual(expectedView(onChain, deal.status));
  return view;
}
