import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import * as bonusRoute from "@/app/api/deals/[id]/bonuses/[bonusId]/route";
import * as bonusesRoute from "@/app/api/deals/[id]/bonuses/route";
import * as eventsRoute from "@/app/api/deals/[id]/events/route";
import * as depositRoute from "@/app/api/deals/[id]/funding/deposit/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as ledgerRoute from "@/app/api/ledger/route";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { chainTransactions, dealEvents, notifications } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { readReputation } from "@/lib/chain/reputation";
import { pollReceipt } from "@/lib/chain/sender";
import { reconcile } from "@/lib/settle/reconcile";
import { drainReputationQueue } from "@/lib/settle/reputation";
import { postAuthorization, signedAuthorization } from "../escrow/funding-steps";
import { brandWallet, fundDeal, walletClientFor } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { makeUser } from "../helpers/users";
import { goodDeliverable, submittedMilestone } from "../verify/fixtures";
import {
  bonusSettlements,
  createBonus,
  eventsOfType,
  FIVE_USDC,
  newBonus,
  paidDeal,
  release,
} from "./bonus-steps";
import { parties, transfersTo, usdcBalance } from "./fixtures";

// Bonuses (issue 24, item 5; lib/settle/bonuses.ts): after a paid milestone the brand sends
// the creator a bonus with a message. It is its own escrow deal, funded by any funding path
// under the bonus's id and released through the settlement path: exactly once, however many
// calls race, with one bonus.paid event on the deal and no reputation record.

describe("POST /api/deals/:id/bonuses refuses, in the error envelope", () => {
  it("the creator (403), a stranger (404), a deal with nothing paid (409), bad amounts and messages (400)", async () => {
    const { brand, creator, dealId } = await paidDeal();
    const stranger = await makeUser("organization");

    const byCreator = await createBonus(creator, dealId, { amount: "1000000", message: "Me" });
    expect(byCreator.status).toBe(403);
    expect(byCreator.body.error.code).toBe("forbidden");
    expect(byCreator.body.error.message).toMatch(/brand/);

    const byStranger = await createBonus(stranger, dealId, { amount: "1000000", message: "Hi" });
    expect(byStranger.status).toBe(404);
    expect(byStranger.body.error.code).toBe("not_found");

    const bad = async (body: unknown, field: string) => {
      const res = await createBonus(brand, dealId, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(typeof res.body.error.message).toBe("string");
      expect(res.body.error.details.map((d: { path: string[] }) => d.path[0])).toContain(field);
    };
    await bad({ amount: "0", message: "Thanks" }, "amount");
    await bad({ amount: "-5000000", message: "Thanks" }, "amount");
    await bad({ amount: "1.5", message: "Thanks" }, "amount");
    await bad({ amount: 5_000_000, message: "Thanks" }, "amount");
    await bad({ amount: "1000000000001", message: "Thanks" }, "amount"); // > 1,000,000 USDC
    await bad({ amount: "1000000", message: "x".repeat(1001) }, "message");
    await bad({ amount: "1000000", message: "   " }, "message");
    await bad({ amount: "1000000" }, "message");
    // The largest amount and the longest message pass the validation.
    const edge = await createBonus(brand, dealId, {
      amount: "1000000000000",
      message: "x".repeat(1000),
    });
    expect(edge.status, JSON.stringify(edge.body)).toBe(201);

    // A taken deal whose milestone is not paid yet.
    const other = await parties();
    const { dealId: unpaid } = await submittedMilestone(
      other.brand,
      other.creator,
      goodDeliverable,
    );
    const early = await createBonus(other.brand, unpaid, { amount: "1000000", message: "Early" });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("invalid_state");
    expect(early.body.error.message).toMatch(/paid/);
  });

  it("releasing before funding is 409 not_funded, and nothing moves", async () => {
    const { brand, creator, wallet, dealId } = await paidDeal();
    const bonus = await newBonus(brand, dealId);
    expect(bonus.status).toBe("awaiting_funding");
    expect(bonus.funding).toBe(`/api/deals/${bonus.id}/funding`);
    const before = await usdcBalance(wallet);
    const res = await release(brand, dealId, bonus.id);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("not_funded");
    expect(await usdcBalance(wallet)).toBe(before);
    // The creator does not see a bonus nobody funded, and may not release one.
    const listed = await call(bonusesRoute.GET, { token: creator.token, params: { id: dealId } });
    expect(listed.body.bonuses).toEqual([]);
    const byCreator = await release(creator, dealId, bonus.id);
    expect(byCreator.status).toBe(404);
  });
});

describe("a bonus is paid through the escrow exactly once", () => {
  it("funded from the brand's wallet, eight concurrent releases move it once; both parties see it; reputation unchanged", {
    timeout: 60_000,
  }, async () => {
    const { brand, creator, wallet, dealId } = await paidDeal();
    const db = await getDb();
    await drainReputationQueue(db, { dealId });
    const reputationBefore = await readReputation(wallet);
    expect(reputationBefore.count).toBe(1); // the milestone's verdict

    const bonus = await newBonus(brand, dealId, FIVE_USDC, "Great launch — <b>thank you</b>!");
    // The brand funds it like a deal, under the bonus's id: terms, its own wallet's fund, report.
    const terms = await call(fundingRoute.GET, { token: brand.token, params: { id: bonus.id } });
    expect(terms.status).toBe(200);
    expect(terms.body.funding.amounts).toEqual([FIVE_USDC.toString()]);
    await fundDeal(brand, bonus.id);
    const balance = await usdcBalance(wallet);
    const transfers = (await transfersTo(wallet)).length;

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => release(brand, dealId, bonus.id)),
    );
    for (const a of answers) {
      expect([200, 409], JSON.stringify(a.body)).toContain(a.status);
      if (a.status === 409) expect(a.body.error.code).toBe("settlement_in_progress");
    }
    expect(answers.some((a) => a.status === 200 && a.body.bonus.status === "paid")).toBe(true);
    // One more, after: the bonus as it stands, nothing sent.
    const after = await release(brand, dealId, bonus.id);
    expect(after.status).toBe(200);
    expect(after.body.bonus).toMatchObject({ status: "paid", amountUnits: "5000000" });
    expect(after.body.bonus.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    expect(await usdcBalance(wallet)).toBe(balance + FIVE_USDC);
    expect(await transfersTo(wallet)).toHaveLength(transfers + 1);
    const rows = await bonusSettlements(bonus.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "confirmed", amountUnits: FIVE_USDC, refundUnits: 0n });
    // The release carries the bonus record's hash in place of a verdict hash.
    expect(rows[0]?.verdictHash).toBe(bonus.recordHash);
    const sent = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.purpose, `settlement:${rows[0]?.id}`));
    expect(sent).toHaveLength(1);

    // One bonus.funded and one bonus.paid on the deal, each in both parties' inboxes.
    const paid = await eventsOfType(dealId, "bonus.paid");
    expect(paid).toHaveLength(1);
    expect(paid[0]?.data).toMatchObject({
      bonusId: bonus.id,
      amount: "5.000000",
      message: "Great launch — <b>thank you</b>!",
    });
    expect(await eventsOfType(dealId, "bonus.funded")).toHaveLength(1);
    const told = await db
      .select()
      .from(notifications)
      .where(eq(notifications.eventId, paid[0]?.id as string));
    expect(told.map((n) => n.userId).sort()).toEqual([brand.user.id, creator.user.id].sort());
    // The bonus deal's own events reach nobody.
    const own = await db.select().from(dealEvents).where(eq(dealEvents.dealId, bonus.id));
    for (const e of own) {
      expect(await db.select().from(notifications).where(eq(notifications.eventId, e.id))).toEqual(
        [],
      );
    }

    // Both timelines show it; both lists have it; the brand's deal list does not show the
    // bonus's escrow deal as a deal of its own.
    for (const who of [brand, creator]) {
      const timeline = await call(eventsRoute.GET, { token: who.token, params: { id: dealId } });
      expect(timeline.body.events.map((e: { type: string }) => e.type)).toContain("bonus.paid");
      const listed = await call(bonusesRoute.GET, { token: who.token, params: { id: dealId } });
      expect(listed.body.bonuses.map((b: { id: string }) => b.id)).toContain(bonus.id);
      const one = await call(bonusRoute.GET, {
        token: who.token,
        params: { id: dealId, bonusId: bonus.id },
      });
      expect(one.body.bonus.status).toBe("paid");
    }
    const list = await call(dealsRoute.GET, { token: brand.token });
    expect(list.body.deals.map((d: { id: string }) => d.id)).not.toContain(bonus.id);
    // In both ledgers the bonus belongs to the deal it rewards (a link both can open, and a
    // filter by that deal finds it), never to the bonus's own escrow deal.
    for (const who of [brand, creator]) {
      const ledger = await call(ledgerRoute.GET, {
        token: who.token,
        path: `/api/ledger?dealId=${dealId}&kind=release`,
      });
      expect(ledger.status).toBe(200);
      const entry = ledger.body.entries.find(
        (e: { txHash: string | null }) => e.txHash === after.body.bonus.txHash,
      );
      expect(entry, JSON.stringify(ledger.body.entries)).toBeDefined();
      expect(entry.deal.id).toBe(dealId);
      expect(entry.amount).toBe("5.000000");
    }

    // Reputation follows verdicts only: nothing queued, nothing recorded for the bonus.
    const drained = await drainReputationQueue(db, { dealId: bonus.id });
    expect(drained.recorded).toBe(0);
    await reconcile(db, { dealId: bonus.id });
    expect(await readReputation(wallet)).toEqual(reputationBefore);
    expect((await bonusSettlements(bonus.id))[0]?.reputationTxHash).toBeNull();
  });

  it("funded by a gasless authorization, released once", { timeout: 60_000 }, async () => {
    const { brand, wallet, dealId } = await paidDeal();
    const bonus = await newBonus(brand, dealId, 2_500_000n, "Gasless");
    const payer = await brandWallet(brand, 2_500_000n);
    const ref = { id: bonus.id, brand, wallet: payer };
    const funded = await postAuthorization(ref, await signedAuthorization(ref));
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    expect(funded.body.deal.status).toBe("open");
    const before = await usdcBalance(wallet);
    const res = await release(brand, dealId, bonus.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.bonus.status).toBe("paid");
    expect(await usdcBalance(wallet)).toBe(before + 2_500_000n);
  });

  it("funded through its deposit address: the release sweeps it, then pays once", {
    timeout: 60_000,
  }, async () => {
    expect(chainConfig().depositFactory).toBeTruthy();
    const { brand, wallet, dealId } = await paidDeal();
    const bonus = await newBonus(brand, dealId, 3_000_000n, "Via the deposit address");
    const asked = await call(depositRoute.POST, {
      token: brand.token,
      params: { id: bonus.id },
      body: { refundAddress: (await brandWallet(brand)).address },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const payer = await brandWallet(brand, 3_000_000n);
    const hash = await walletClientFor(payer).writeContract({
      address: chainConfig().usdc as Address,
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [asked.body.deposit.address, 3_000_000n],
    });
    expect((await pollReceipt(hash, 30_000))?.status).toBe("success");
    const before = await usdcBalance(wallet);
    const res = await release(brand, dealId, bonus.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.bonus.status).toBe("paid");
    expect(await usdcBalance(wallet)).toBe(before + 3_000_000n);
    const funded = await eventsOfType(dealId, "bonus.funded");
    expect(funded.find((e) => e.data.bonusId === bonus.id)?.data.via).toBe("deposit");
  });

  it("reconcile pays a funded bonus nobody released, once; a second run does nothing", {
    timeout: 60_000,
  }, async () => {
    const { brand, wallet, dealId } = await paidDeal();
    const bonus = await newBonus(brand, dealId, 1_000_000n, "Reconciled");
    await fundDeal(brand, bonus.id);
    const before = await usdcBalance(wallet);
    const db = await getDb();
    const first = await reconcile(db, { dealId: bonus.id });
    expect(first.escrow.bonusesPaid).toBe(1);
    expect(await usdcBalance(wallet)).toBe(before + 1_000_000n);
    const second = await reconcile(db, { dealId: bonus.id });
    expect(second.escrow.bonusesPaid).toBe(0);
    expect(second.settlements.confirmed).toBe(0);
    expect(await usdcBalance(wallet)).toBe(before + 1_000_000n);
    const res = await release(brand, dealId, bonus.id);
    expect(res.body.bonus.status).toBe("paid");
    expect(await eventsOfType(dealId, "bonus.paid")).toHaveLength(1);
  });

  it("honours Idempotency-Key on creation", async () => {
    const { brand, dealId } = await paidDeal();
    const headers = { "Idempotency-Key": `bonus-${dealId}` };
    const body = { amount: "1000000", message: "Once" };
    const a = await createBonus(brand, dealId, body, headers);
    const b = await createBonus(brand, dealId, body, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.bonus.id).toBe(a.body.bonus.id);
    const listed = await call(bonusesRoute.GET, { token: brand.token, params: { id: dealId } });
    expect(listed.body.bonuses).toHaveLength(1);
    expect(listed.body.nextCursor).toBeNull();
  });
});
