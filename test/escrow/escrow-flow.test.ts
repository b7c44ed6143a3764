import { eq } from "drizzle-orm";
import { type Address, type Hex, keccak256, maxUint256, parseEventLogs, toBytes } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as authorizationRoute from "@/app/api/deals/[id]/funding/authorization/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { deals, verifications } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { pollReceipt } from "@/lib/chain/sender";
import { dealKey, dealRef, receiveAuthorizationTypedData } from "@/lib/escrow/onchain";
import { reconcile } from "@/lib/settle/reconcile";
import { settleMilestone } from "@/lib/settle/settle";
import {
  brandWallet,
  fundDeal,
  fundingTermsOf,
  sendFunding,
  walletClientFor,
} from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import { makeUser, type TestUser } from "../helpers/users";
import { usdcBalance } from "../settle/fixtures";
import { answering, approve, submit } from "../verify/fixtures";

// The escrow end to end on the real database and anvil: funding is read from the contract
// (never taken from a reported hash), taking a deal records the creator on-chain, settle
// releases payout to the creator and the rest to the brand in one transaction, and money
// goes back to the brand on cancel.

let brand: TestUser;
let creator: TestUser;
let escrow: Address;

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
  escrow = chainConfig().escrow as Address;
});

const newDeal = (amounts: number[] = [50, 30]) =>
  createDealFor(brand, amounts, { title: "Escrowed campaign" });

const getDeal = (token: string, id: string) => call(dealRoute.GET, { token, params: { id } });
const confirm = (id: string, txHash?: string, wallet?: Address) =>
  call(fundingRoute.POST, {
    token: brand.token,
    params: { id },
    body: { ...(txHash ? { txHash } : {}), ...(wallet ? { brand: wallet } : {}) },
  });

describe("funding", () => {
  it("the whole journey: fund → take → submit → settle moves exactly the right money", async () => {
    const deal = await newDeal([50, 30]);
    expect(deal.status).toBe("unfunded");
    const funder = await brandWallet(brand, 80_000_000n);
    const brandBefore = await usdcBalance(funder.address);
    const escrowBefore = await usdcBalance(escrow);

    await fundDeal(brand, deal.id);
    expect(await usdcBalance(funder.address)).toBe(brandBefore - 80_000_000n);
    expect(await usdcBalance(escrow)).toBe(escrowBefore + 80_000_000n);
    const opened = await getDeal(brand.token, deal.id);
    expect(opened.body.deal).toMatchObject({
      status: "open",
      escrow: {
        funded: true,
        locked: "80.000000",
        released: "0.000000",
        refunded: "0.000000",
        brandWallet: funder.address,
        address: escrow,
      },
    });
    expect(opened.body.deal.escrow.fundingExplorerUrl).toMatch(/\/tx\/0x/);

    const taken = await call(acceptRoute.POST, { token: creator.token, params: { id: deal.id } });
    expect(taken.status).toBe(200);
    expect(taken.body.deal.escrow.creatorAssigned).toBe(true);
    const onChain = await publicClient().readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "getDeal",
      args: [dealKey(funder.address, deal.id)],
    });
    expect(onChain[2]).toBe(creator.user.walletAddress); // the creator, recorded on-chain

    const milestoneId = deal.milestones[0]?.id as string;
    await submit(creator, milestoneId);
    const wallet = creator.user.walletAddress as Address;
    const escrowMid = await usdcBalance(escrow);
    const brandMid = await usdcBalance(funder.address);
    const result = await settleMilestone(
      await getDb(),
      brand.user,
      { milestoneId, via: "direct" },
      { verifier: { model: answering(approve) } }, // score 0.92
    );
    expect(result.outcome).toBe("paid");
    if (result.outcome !== "paid") return;
    expect(result.settlement).toMatchObject({ amount: "46.000000", refund: "4.000000" });
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
    expect(await usdcBalance(funder.address)).toBe(brandMid + 4_000_000n);
    expect(await usdcBalance(escrow)).toBe(escrowMid - 50_000_000n);

    // The release carried the hash of the stored verdict record, which anyone can recompute.
    const receipt = await publicClient().getTransactionReceipt({
      hash: result.settlement.txHash as Hex,
    });
    const [released] = parseEventLogs({
      abi: milestoneEscrowAbi,
      logs: receipt.logs,
      eventName: "Released",
    });
    const [v] = await (await getDb())
      .select()
      .from(verifications)
      .where(eq(verifications.milestoneId, milestoneId));
    expect(released?.args.verdictHash).toBe(v?.recordHash);
    expect(keccak256(toBytes(v?.record as string))).toBe(v?.recordHash);
    expect(JSON.parse(v?.record as string)).toMatchObject({
      milestoneId,
      revision: 1,
      approved: true,
      scoreBps: 9200,
      source: "model",
    });

    const after = await getDeal(creator.token, deal.id);
    expect(after.body.deal.escrow).toMatchObject({
      locked: "30.000000",
      released: "46.000000",
      refunded: "4.000000",
    });
  });

  it("a forged, foreign or missing hash leaves the deal unfunded; the contract decides", async () => {
    const deal = await newDeal([10]);
    const forged = `0x${"ab".repeat(32)}`;
    const res = await confirm(deal.id, forged);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("not_funded");

    // A real transaction of the brand's that is not this deal's funding (an approve).
    const funder = await brandWallet(brand, 10_000_000n);
    const approveHash = await walletClientFor(funder).writeContract({
      address: chainConfig().usdc as Address,
      abi: mockUsdcAbi,
      functionName: "approve",
      args: [escrow, maxUint256],
    });
    await pollReceipt(approveHash, 30_000);
    const foreign = await confirm(deal.id, approveHash);
    expect(foreign.status).toBe(409);
    expect(foreign.body.error.code).toBe("not_funded");
    expect((await getDeal(brand.token, deal.id)).body.deal.status).toBe("unfunded");

    // Another deal's funding hash does not fund this one either.
    const other = await newDeal([10]);
    const otherHash = await fundDeal(brand, other.id);
    expect((await confirm(deal.id, otherHash)).body.error.code).toBe("not_funded");
    // Creators still cannot see it.
    expect((await getDeal(creator.token, deal.id)).status).toBe(404);
  });

  it("an escrow funded with other terms does not open the deal", async () => {
    const deal = await newDeal([20, 20]);
    const hash = await sendFunding(brand, deal.id, { amounts: ["10000000", "30000000"] });
    const res = await confirm(deal.id, hash, (await brandWallet(brand)).address);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    expect(res.body.error.details.problems).toEqual([
      "milestone 1's amount differs",
      "milestone 2's amount differs",
    ]);
    expect((await getDeal(brand.token, deal.id)).body.deal.status).toBe("unfunded");
  });

  it("a funding nobody reported, from the wallet the brand named, is noticed by reconcile", async () => {
    const deal = await newDeal([12]);
    const funder = await brandWallet(brand, 12_000_000n);
    // "Check the escrow again" with the wallet connected: nothing yet, but the wallet is named.
    expect((await confirm(deal.id, undefined, funder.address)).body.error.code).toBe("not_funded");
    await sendFunding(brand, deal.id);
    expect((await getDeal(brand.token, deal.id)).body.deal.status).toBe("unfunded");
    // Scoped to this deal: the shared test database holds other files' deals too.
    const report = await reconcile(await getDb(), { dealId: deal.id });
    expect(report.escrow.funded).toBe(1);
    const seen = await getDeal(brand.token, deal.id);
    expect(seen.body.deal.status).toBe("open");
    expect(seen.body.deal.escrow.fundingTxHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("gasless: the relayer submits the brand's signed authorization; a replay moves nothing more", async () => {
    const deal = await newDeal([25]);
    const funder = await brandWallet(brand, 25_000_000n);
    const terms = await fundingTermsOf(brand, deal.id);
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const typed = receiveAuthorizationTypedData({
      chainId: chainConfig().chainId,
      escrow,
      usdc: chainConfig().usdc as Address,
      dealRef: terms.dealRef,
      brand: funder.address,
      evaluator: terms.evaluator,
      deadline: BigInt(terms.deadline),
      amounts: terms.amounts.map(BigInt),
      validAfter: 0n,
      validBefore,
    });
    const signature = await funder.signTypedData(typed);
    const body = {
      brand: funder.address,
      validAfter: 0,
      validBefore: Number(validBefore),
      signature,
    };
    const before = await usdcBalance(funder.address);
    const ethBefore = await publicClient().getBalance({ address: funder.address });
    const res = await call(authorizationRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.body.deal.status).toBe("open");
    expect(await usdcBalance(funder.address)).toBe(before - 25_000_000n);
    expect(await publicClient().getBalance({ address: funder.address })).toBe(ethBefore); // no gas
    const again = await call(authorizationRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body,
    });
    expect(again.status).toBe(200);
    expect(await usdcBalance(funder.address)).toBe(before - 25_000_000n);

    // A signature over other terms is refused before anything is sent.
    const bad = await newDeal([25]);
    const refused = await call(authorizationRoute.POST, {
      token: brand.token,
      params: { id: bad.id },
      body,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("invalid_signature");
    expect((await getDeal(brand.token, bad.id)).body.deal.status).toBe("unfunded");
  });

  it("only the brand sees the funding terms", async () => {
    const deal = await newDeal([5]);
    const asCreator = await call(fundingRoute.GET, {
      token: creator.token,
      params: { id: deal.id },
    });
    expect(asCreator.status).toBe(404);
    const terms = await fundingTermsOf(brand, deal.id);
    expect(terms).toMatchObject({
      escrow,
      dealRef: dealRef(deal.id),
      dealKey: null, // no funding wallet known yet
      amounts: ["5000000"],
      totalUnits: "5000000",
    });
    const wallet = (await brandWallet(brand)).address;
    expect((await fundingTermsOf(brand, deal.id, wallet)).dealKey).toBe(dealKey(wallet, deal.id));
  });
});

describe("cancelling", () => {
  it("an unfunded deal is cancelled at once", async () => {
    const deal = await newDeal([7]);
    const res = await call(cancelRoute.POST, { token: brand.token, params: { id: deal.id } });
    expect(res.status).toBe(200);
    expect(res.body.deal.status).toBe("cancelled");
  });

  it("a funded, untaken deal: only the brand's own escrow call returns the money, then it is cancelled", async () => {
    const deal = await newDeal([9, 11]);
    await fundDeal(brand, deal.id);
    const first = await call(cancelRoute.POST, { token: brand.token, params: { id: deal.id } });
    expect(first.status).toBe(409);
    const funder = await brandWallet(brand);
    expect(first.body.error.details).toMatchObject({
      escrow,
      dealKey: dealKey(funder.address, deal.id),
      brandWallet: funder.address,
    });

    const before = await usdcBalance(funder.address);
    const hash = await walletClientFor(funder).writeContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "cancel",
      args: [dealKey(funder.address, deal.id)],
    });
    await pollReceipt(hash, 30_000);
    expect(await usdcBalance(funder.address)).toBe(before + 20_000_000n);

    const res = await call(cancelRoute.POST, { token: brand.token, params: { id: deal.id } });
    expect(res.status).toBe(200);
    expect(res.body.deal.status).toBe("cancelled");
    expect(res.body.deal.escrow).toMatchObject({ locked: "0.000000", refunded: "20.000000" });
    expect(res.body.deal.milestones.map((m: { status: string }) => m.status)).toEqual([
      "refunded",
      "refunded",
    ]);
    expect(res.body.deal.milestones[0].refundTxHash).toBe(hash);
  });

  it("a creator taking a deal the brand just cancelled on-chain is refused; the deal ends cancelled", async () => {
    const deal = await newDeal([6]);
    await fundDeal(brand, deal.id);
    const funder = await brandWallet(brand);
    const hash = await walletClientFor(funder).writeContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "cancel",
      args: [dealKey(funder.address, deal.id)],
    });
    await pollReceipt(hash, 30_000);
    const taken = await call(acceptRoute.POST, { token: creator.token, params: { id: deal.id } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("invalid_state");
    const [row] = await (await getDb()).select().from(deals).where(eq(deals.id, deal.id));
    expect(row?.status).toBe("cancelled");
  });

  it("a taken deal cannot be cancelled", async () => {
    const deal = await newDeal([8]);
    await fundDeal(brand, deal.id);
    const other = await makeUser("creator");
    expect(
      (await call(acceptRoute.POST, { token: other.token, params: { id: deal.id } })).status,
    ).toBe(200);
    const res = await call(cancelRoute.POST, { token: brand.token, params: { id: deal.id } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
  });
});
