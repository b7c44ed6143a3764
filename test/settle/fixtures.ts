import { eq, inArray } from "drizzle-orm";
import { type Address, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as settleRoute from "@/app/api/settle/route";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import {
  type ChainTransaction,
  chainTransactions,
  deals,
  milestones,
  type Settlement,
  settlements,
} from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { escrowKey } from "@/lib/escrow/chain";
import type { Claimed } from "@/lib/settle/batch";
import { claim } from "@/lib/settle/settle";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import { launchRules, submit } from "../verify/fixtures";

// Parties for settlement tests: a brand, and a creator with a wallet of its own that no
// other test touches, so its on-chain balance tells exactly what was paid.

export async function parties(): Promise<{ brand: TestUser; creator: TestUser; wallet: Address }> {
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  const brand = await makeUser("organization");
  const creator = await makeUser("creator", { walletAddress: wallet });
  return { brand, creator, wallet };
}

export async function usdcBalance(address: Address): Promise<bigint> {
  const usdc = chainConfig().usdc;
  if (!usdc) throw new Error("no USDC deployment");
  return publicClient().readContract({
    address: usdc,
    abi: mockUsdcAbi,
    functionName: "balanceOf",
    args: [address],
  });
}

/** Every USDC Transfer to `to` since the token was deployed, read from the chain. */
export async function transfersTo(to: Address) {
  const usdc = chainConfig().usdc;
  if (!usdc) throw new Error("no USDC deployment");
  const logs = await publicClient().getLogs({ address: usdc, fromBlock: 0n, toBlock: "latest" });
  return parseEventLogs({ abi: mockUsdcAbi, logs, eventName: "Transfer" }).filter(
    (l) => l.args.to.toLowerCase() === to.toLowerCase(),
  );
}

export async function settlementRows(milestoneId: string) {
  const db = await getDb();
  return db.select().from(settlements).where(eq(settlements.milestoneId, milestoneId));
}

/** An active deal of `count` milestones of 1 USDC; returns the milestone ids. */
export async function activeDeal(
  brand: TestUser,
  creator: TestUser,
  count: number,
): Promise<string[]> {
  const created = await call(dealsRoute.POST, {
    token: brand.token,
    body: {
      title: "A campaign",
      platform: "instagram",
      milestones: Array.from({ length: count }, (_, i) => ({
        title: `Post ${i + 1}`,
        amount: 1,
        requirements: launchRules,
      })),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const dealId: string = created.body.deal.id;
  await fundDeal(brand, dealId);
  const accepted = await call(acceptRoute.POST, { params: { id: dealId }, token: creator.token });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return created.body.deal.milestones.map((m: { id: string }) => m.id);
}

/** `count` delivered milestones of one new active deal (1 USDC each), and the parties. */
export async function deliveredMilestones(count: number) {
  const p = await parties();
  const ids = await activeDeal(p.brand, p.creator, count);
  for (const id of ids) await submit(p.creator, id);
  return { ...p, ids };
}

/** POST /api/settle's bulk form, as `brand`. */
export const bulkSettle = (brand: TestUser, milestoneIds: string[]) =>
  call(settleRoute.POST, { token: brand.token, body: { milestoneIds } });

/** A recorded chain transaction by id (a settlement's chainTxId). */
export async function chainTxRow(id: string | null): Promise<ChainTransaction | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(chainTransactions)
    .where(eq(chainTransactions.id, id as string));
  return row;
}

/** The deal's escrow key and the milestone's index, as a release names them. */
export async function releaseName(milestoneId: string): Promise<{ key: Hex; index: bigint }> {
  const db = await getDb();
  const [row] = await db
    .select({ deal: deals, position: milestones.position })
    .from(milestones)
    .innerJoin(deals, eq(deals.id, milestones.dealId))
    .where(eq(milestones.id, milestoneId));
  if (!row) throw new Error(`no milestone ${milestoneId}`);
  return { key: escrowKey(row.deal), index: BigInt(row.position) };
}

/**
 * The settlement's recorded log is, in its transaction's receipt, its milestone's Released
 * (paying the settlement's amount, or `payout` for a release made behind the app's back).
 */
export async function expectPaidBy(
  s: Settlement | undefined,
  receipt?: TransactionReceipt,
  payout = s?.amountUnits,
) {
  expect(s?.status).toBe("confirmed");
  expect(s?.logIndex).toEqual(expect.any(Number));
  const r = receipt ?? (await publicClient().getTransactionReceipt({ hash: s?.txHash as Hex }));
  expect(r.transactionHash).toBe(s?.txHash);
  const [log] = parseEventLogs({
    abi: milestoneEscrowAbi,
    logs: r.logs.filter((l) => l.logIndex === s?.logIndex),
  });
  expect(log?.eventName).toBe("Released");
  const { key, index } = await releaseName(s?.milestoneId as string);
  expect(log?.args).toMatchObject({ dealKey: key, index, payout });
}

/** The verdict hash claimDelivered's settlements pay on. */
export const TEST_VERDICT = `0x${"cd".repeat(32)}` as const;

/**
 * Claims these delivered milestones as a settle would, at full score on TEST_VERDICT, one
 * after another in the given order: each settlement created and leased to the caller, ready
 * for payClaimed or payBatch (lib/settle/batch.ts).
 */
export async function claimDelivered(brand: TestUser, ids: string[]): Promise<Claimed[]> {
  const db = await getDb();
  const rows = await db
    .select({ deal: deals, milestone: milestones })
    .from(milestones)
    .innerJoin(deals, eq(deals.id, milestones.dealId))
    .where(inArray(milestones.id, ids));
  const byId = new Map(rows.map((r) => [r.milestone.id, r]));
  const claimed: Claimed[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) throw new Error(`no milestone ${id}`);
    const basis = { revision: row.milestone.revision, scoreBps: 10_000, verdictHash: TEST_VERDICT };
    const settlement = await claim(db, row.deal, row.milestone, basis, "direct", {
      actorId: brand.user.id,
    });
    claimed.push({ settlement, target: row });
  }
  return claimed;
}
