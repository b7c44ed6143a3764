import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type Settlement, settlements } from "@/db/schema";
import { recordReputation } from "@/lib/chain/reputation";

// After a settlement is paid, the registry records it for the creator's wallet. The
// registry refuses a milestone twice, so retrying (reconcile) is safe.
export async function recordSettlementReputation(db: Db, s: Settlement): Promise<void> {
  if (s.status !== "confirmed" || s.reputationTxHash) return;
  const recorded = await recordReputation(db, {
    wallet: s.recipient as `0x${string}`,
    scoreBps: s.scoreBps,
    milestoneId: s.milestoneId,
    amountUnits: s.amountUnits,
  });
  // "already_recorded" without a hash of ours stays null; the registry check is a cheap read.
  if (recorded.txHash)
    await db
      .update(settlements)
      .set({ reputationTxHash: recorded.txHash, updatedAt: new Date() })
      .where(eq(settlements.id, s.id));
}
