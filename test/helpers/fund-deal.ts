import { eq } from "drizzle-orm";
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  type PrivateKeyAccount,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { chainConfig, publicClient, requireTreasury } from "@/lib/chain/config";
import { pollReceipt, recordTransaction, resumeTransaction } from "@/lib/chain/sender";
import { call } from "./http";
import type { TestUser } from "./users";

// Funding a deal's escrow the way a brand does: its own wallet approves the escrow and
// calls fund(dealRef, evaluator, deadline, amounts) with the terms the API gives (the escrow
// keys the deal by that wallet), then reports the transaction. The wallet gets test USDC and
// gas on the local chain.

const funders = new Map<string, PrivateKeyAccount>();

/** A wallet of this brand's (one per brand user and process), with gas and test USDC. */
export async function brandWallet(brand: TestUser, minimum = 0n): Promise<PrivateKeyAccount> {
  let account = funders.get(brand.user.id);
  if (!account) {
    account = privateKeyToAccount(generatePrivateKey());
    funders.set(brand.user.id, account);
  }
  const usdc = chainConfig().usdc as Address;
  const balance = await publicClient().readContract({
    address: usdc,
    abi: mockUsdcAbi,
    functionName: "balanceOf",
    args: [account.address],
  });
  if (balance < minimum || balance === 0n) {
    // Minted by the token's owner (this test chain's treasury) through the service's own
    // sender, so its nonces stay in order; gas money straight from anvil.
    const db = await getDb();
    await publicClient().request({
      method: "anvil_setBalance" as never,
      params: [account.address, toHex(10n ** 19n)] as never,
    });
    const row = await recordTransaction(db, requireTreasury(), {
      to: usdc,
      data: encodeFunctionData({
        abi: mockUsdcAbi,
        functionName: "mint",
        args: [account.address, minimum + 1_000_000_000n],
      }),
      purpose: "test:brand-usdc",
    });
    const done = await resumeTransaction(db, row);
    if (done.status !== "confirmed") throw new Error(`minting test USDC: ${done.status}`);
  }
  return account;
}

/**
 * Links the brand's funding wallet to its account (as if proven by signature): the app then
 * knows which escrow key is the brand's without being told (the watcher, an edit's check).
 */
export async function linkFundingWallet(brand: TestUser): Promise<PrivateKeyAccount> {
  const account = await brandWallet(brand);
  const db = await getDb();
  await db
    .update(users)
    .set({ walletAddress: account.address, walletSource: "signature" })
    .where(eq(users.id, brand.user.id));
  return account;
}

export function walletClientFor(account: PrivateKeyAccount) {
  const config = chainConfig();
  return createWalletClient({
    account,
    chain: config.known.chain,
    transport: http(config.rpcUrl),
  });
}

export type FundingTerms = {
  escrow: Address;
  usdc: Address;
  dealRef: Hex;
  /** The escrow key for `?brand=` (or the deal's known funding wallet); null when none. */
  dealKey: Hex | null;
  evaluator: Address;
  deadline: number;
  amounts: string[];
  totalUnits: string;
};

export async function fundingTermsOf(
  brand: TestUser,
  dealId: string,
  wallet?: Address,
): Promise<FundingTerms> {
  const res = await call(fundingRoute.GET, {
    token: brand.token,
    params: { id: dealId },
    path: wallet ? `/?brand=${wallet}` : undefined,
  });
  if (res.status !== 200) throw new Error(`funding terms: ${JSON.stringify(res.body)}`);
  return res.body.funding;
}

/**
 * Sends approve + fund from the brand's wallet (or `opts.from`, e.g. a third party's);
 * returns the fund transaction's hash.
 */
export async function sendFunding(
  brand: TestUser,
  dealId: string,
  override: Partial<Pick<FundingTerms, "evaluator" | "deadline" | "amounts">> = {},
  opts: { from?: PrivateKeyAccount } = {},
): Promise<Hex> {
  const terms = { ...(await fundingTermsOf(brand, dealId)), ...override };
  const total = terms.amounts.reduce((s, a) => s + BigInt(a), 0n);
  const account = opts.from ?? (await brandWallet(brand, total));
  const wallet = walletClientFor(account);
  const client = publicClient();
  const allowance = await client.readContract({
    address: terms.usdc,
    abi: mockUsdcAbi,
    functionName: "allowance",
    args: [account.address, terms.escrow],
  });
  if (allowance < total) {
    const approve = await wallet.writeContract({
      address: terms.usdc,
      abi: mockUsdcAbi,
      functionName: "approve",
      args: [terms.escrow, maxUint256],
    });
    await pollReceipt(approve, 30_000);
  }
  const hash = await wallet.writeContract({
    address: terms.escrow,
    abi: milestoneEscrowAbi,
    functionName: "fund",
    args: [terms.dealRef, terms.evaluator, BigInt(terms.deadline), terms.amounts.map(BigInt)],
  });
  const receipt = await pollReceipt(hash, 30_000);
  if (receipt?.status !== "success") throw new Error(`fund: ${receipt?.status ?? "no receipt"}`);
  return hash;
}

/** Funds the deal's escrow and reports it (hash and wallet): the deal is `open` afterwards. */
export async function fundDeal(brand: TestUser, dealId: string): Promise<Hex> {
  const hash = await sendFunding(brand, dealId);
  const res = await call(fundingRoute.POST, {
    token: brand.token,
    params: { id: dealId },
    body: { txHash: hash, brand: (await brandWallet(brand)).address },
  });
  if (res.status !== 200 || res.body.deal.status !== "open")
    throw new Error(`confirm funding: ${res.status} ${JSON.stringify(res.body)}`);
  return hash;
}
