import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  maxUint256,
  type PrivateKeyAccount,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { pollReceipt } from "@/lib/chain/sender";
import { reconcile } from "@/lib/settle/reconcile";
import { brandWallet, walletClientFor } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import { makeUser, type TestUser } from "../helpers/users";
import { usdcBalance } from "../settle/fixtures";

// Deal-key squatting (issue 21, point 5), on anvil through the app's own handlers. A deal's
// ref is public the moment the brand's funding transaction is pending, so a third party can
// fund that ref first: with junk terms (to block the brand) or with the exact terms (to pose
// as the brand, then cancel). The escrow keys a deal by its funder, and the app reads only the
// deal under the brand's own wallet's key: neither squatter blocks nor hijacks the deal.
//
// The test speaks to the contract with raw calls (the ref is the deal's UUID, left-padded),
// so the same steps run against the old escrow, keyed by the ref alone: there the junk
// funding blocks the brand (DealExists) and the exact copy opens the deal as the squatter's.

let brand: TestUser;
let escrow: Address;
let usdc: Address;

beforeAll(async () => {
  brand = await makeUser("organization");
  escrow = chainConfig().escrow as Address;
  usdc = chainConfig().usdc as Address;
});

/** The deal's ref: its UUID's 16 bytes, left-padded to 32. */
const refOf = (dealId: string): Hex => `0x${"0".repeat(32)}${dealId.replaceAll("-", "")}`;

const newDeal = (amounts: number[]) =>
  createDealFor(brand, amounts, { title: "Squatted campaign" });

type Terms = { evaluator: Address; deadline: number; amounts: string[] };

async function termsOf(dealId: string): Promise<Terms> {
  const res = await call(fundingRoute.GET, { token: brand.token, params: { id: dealId } });
  expect(res.status).toBe(200);
  return res.body.funding;
}

/** `who` approves the escrow and calls fund(ref, …) itself; the receipt's hash. */
async function fundAs(who: PrivateKeyAccount, ref: Hex, t: Terms): Promise<Hex> {
  const wallet = walletClientFor(who);
  await pollReceipt(
    await wallet.writeContract({
      address: usdc,
      abi: mockUsdcAbi,
      functionName: "approve",
      args: [escrow, maxUint256],
    }),
    30_000,
  );
  const hash = await wallet.writeContract({
    address: escrow,
    abi: milestoneEscrowAbi,
    functionName: "fund",
    args: [ref, t.evaluator, BigInt(t.deadline), t.amounts.map(BigInt)],
  });
  const receipt = await pollReceipt(hash, 30_000);
  expect(receipt?.status).toBe("success");
  return hash;
}

/** A wallet with gas and test USDC that belongs to nobody in the app's eyes (a squatter). */
async function squatterWallet(): Promise<PrivateKeyAccount> {
  return brandWallet(await makeUser("organization"), 100_000_000n);
}

async function revertName(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    const reverted =
      err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
    throw err;
  }
  throw new Error("expected a revert");
}

const dealOf = async (id: string) =>
  (await call(dealRoute.GET, { token: brand.token, params: { id } })).body.deal;
const report = (id: string, body: { txHash?: Hex; brand?: Address }) =>
  call(fundingRoute.POST, { token: brand.token, params: { id }, body });

describe("deal-key squatting", () => {
  it("a squatter's funding of the deal's ref neither blocks nor hijacks the brand's deal", async () => {
    const db = await getDb();
    const deal = await newDeal([30, 20]);
    const ref = refOf(deal.id);
    const terms = await termsOf(deal.id);
    const brandAccount = await brandWallet(brand, 50_000_000n);

    // 1. Junk terms under the deal's ref (one base unit, other split): the app sees nothing.
    const junk = await squatterWallet();
    await fundAs(junk, ref, { ...terms, amounts: ["1"] });
    const afterJunk = await report(deal.id, {});
    expect(afterJunk.status).toBe(409);
    expect(afterJunk.body.error.code).toBe("not_funded");
    await reconcile(db, { dealId: deal.id });
    expect((await dealOf(deal.id)).status).toBe("unfunded");

    // 2. The exact terms from another wallet: still not this deal's funding, whoever asks —
    //    the brand with no wallet named, a hash, the brand naming its own wallet, the watcher.
    const copycat = await squatterWallet();
    const copyHash = await fundAs(copycat, ref, terms);
    // A reported hash never names the wallet: the copycat's own transaction opens nothing.
    for (const body of [{}, { txHash: copyHash }, { brand: brandAccount.address }]) {
      const res = await report(deal.id, body);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("not_funded");
    }
    await reconcile(db, { dealId: deal.id });
    const unopened = await dealOf(deal.id);
    expect(unopened.status).toBe("unfunded");
    expect(unopened.escrow.funded).toBe(false);

    // 3. The brand funds normally, with the same ref and terms: it goes through, and the deal
    //    opens with the brand's wallet as its brand.
    const before = await usdcBalance(brandAccount.address);
    const hash = await fundAs(brandAccount, ref, terms);
    expect(await usdcBalance(brandAccount.address)).toBe(before - 50_000_000n);
    const opened = await report(deal.id, { txHash: hash, brand: brandAccount.address });
    expect(opened.status).toBe(200);
    expect(opened.body.deal).toMatchObject({
      status: "open",
      escrow: {
        funded: true,
        locked: "50.000000",
        brandWallet: brandAccount.address,
        fundingTxHash: hash,
      },
    });
    expect(opened.body.deal.escrow.fundingTxHash).not.toBe(copyHash);

    // 4. The copycat cannot cancel the brand's deal: the key it would need is the brand's,
    //    and only the brand may cancel under it.
    const brandKey = await publicClient().readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "dealKey",
      args: [brandAccount.address, ref],
    });
    const copycatWallet = walletClientFor(copycat);
    expect(
      await revertName(
        copycatWallet.writeContract({
          address: escrow,
          abi: milestoneEscrowAbi,
          functionName: "cancel",
          args: [brandKey],
        }),
      ),
    ).toBe("NotBrand");
    // Cancelling its own copy returns its own money and changes nothing for the deal.
    const copyKey = await publicClient().readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "dealKey",
      args: [copycat.address, ref],
    });
    const copycatBefore = await usdcBalance(copycat.address);
    await pollReceipt(
      await copycatWallet.writeContract({
        address: escrow,
        abi: milestoneEscrowAbi,
        functionName: "cancel",
        args: [copyKey],
      }),
      30_000,
    );
    expect(await usdcBalance(copycat.address)).toBe(copycatBefore + 50_000_000n);
    await reconcile(db, { dealId: deal.id });
    const cancel = await call(cancelRoute.POST, { token: brand.token, params: { id: deal.id } });
    expect(cancel.status).toBe(409); // funded and not cancelled: only the brand's call can
    expect(cancel.body.error.details.brandWallet).toBe(brandAccount.address);
    const still = await dealOf(deal.id);
    expect(still).toMatchObject({
      status: "open",
      escrow: { locked: "50.000000", refunded: "0.000000", brandWallet: brandAccount.address },
    });
    expect(await usdcBalance(brandAccount.address)).toBe(before - 50_000_000n);
  });
});
