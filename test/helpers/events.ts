import { getDb } from "@/db/client";
import { deals, milestones } from "@/db/schema";
import { type NewDealEvent, recordEvent } from "@/lib/events/events";
import type { TestUser } from "./users";

// A deal between two test users written straight to the database (no escrow), and events
// recorded on it through the real recordEvent, each in a transaction of its own: for tests
// of what consumes the activity log (notifications, e-mail, webhooks).

export async function dealBetween(
  brand: TestUser,
  creator: TestUser | null,
  title = "Spring launch",
): Promise<{ dealId: string; milestoneId: string }> {
  const db = await getDb();
  const [deal] = await db
    .insert(deals)
    .values({
      brandId: brand.user.id,
      creatorId: creator?.user.id ?? null,
      title,
      budgetUnits: 10_000_000n,
      status: creator ? "active" : "open",
    })
    .returning({ id: deals.id });
  if (!deal) throw new Error("no deal");
  const [m] = await db
    .insert(milestones)
    .values({
      dealId: deal.id,
      position: 0,
      title: "Launch post",
      amountUnits: 10_000_000n,
      requirements: { hashtags: [], mentions: [], links: [], criteria: [] },
    })
    .returning({ id: milestones.id });
  if (!m) throw new Error("no milestone");
  return { dealId: deal.id, milestoneId: m.id };
}

/** Records one event in its own transaction, as a state change would. */
export async function record(e: NewDealEvent): Promise<void> {
  const db = await getDb();
  await db.transaction((tx) => recordEvent(tx, e));
}
