import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { DealEventType } from "@/db/schema";
import type { EventJson } from "@/lib/events/objects";
import { webhookEventTypes } from "@/lib/webhooks/schemas";

// Test events (POST /api/webhooks/:id/test): an event of any type, made up but shaped
// exactly like a real one (lib/events/objects.ts), with `test: true` and a sample deal or
// milestone. It is delivered through the real outbox: the same signature, headers, retries
// and delivery log as a real event.

export const testEventBody = z
  .object({
    type: z.enum(webhookEventTypes).describe("The event type to send (any, subscribed or not)"),
  })
  .strict();

/** Types about one milestone: their data.object is a milestone. */
const milestoneTypes = new Set<DealEventType>([
  "submitted",
  "verified",
  "rejected",
  "approved",
  "paid",
  "appealed",
  "decided",
  "overdue",
  "review_window_elapsed",
  "draft.submitted",
  "draft.approved",
  "draft.changes_requested",
  "milestone.changes_requested",
]);

/** A made-up event of `type`, shaped like a real one. */
export function makeTestEvent(type: DealEventType, now = new Date()): EventJson {
  const dealId = randomUUID();
  const milestoneId = milestoneTypes.has(type) ? randomUUID() : null;
  const at = now.toISOString();
  const object = milestoneId
    ? {
        id: milestoneId,
        object: "milestone" as const,
        dealId,
        position: 0,
        title: "Launch post (test)",
        amount: "50",
        status:
          type === "paid"
            ? "paid"
            : type === "submitted"
              ? "submitted"
              : type === "milestone.changes_requested"
                ? "pending"
                : "approved",
        revision: 1,
        dueAt: null,
        refundTxHash: null,
        metadata: {},
        createdAt: at,
      }
    : {
        id: dealId,
        object: "deal" as const,
        title: "Spring launch (test)",
        description: "A test event: no such deal exists.",
        platform: "instagram",
        status: type === "created" || type === "edited" ? "unfunded" : "active",
        budget: "50",
        minScore: 0.5,
        autoSettleConfidence: 0.9,
        termsVersion: type === "edited" ? 2 : 1,
        brandId: randomUUID(),
        creatorId: null,
        deadline: at,
        fundedAt: null,
        metadata: {},
        createdAt: at,
      };
  return {
    id: randomUUID(),
    object: "event",
    type,
    createdAt: at,
    dealId,
    milestoneId,
    actor: null,
    test: true,
    data: {
      dealId,
      milestoneId,
      object,
      ...(type === "edited"
        ? { previous_attributes: { title: "Spring launch (draft)", termsVersion: 1 } }
        : {}),
      ...(type === "message.created"
        ? { messageId: randomUUID(), body: "Can you post it on Friday morning?" }
        : {}),
      ...(type === "bonus.funded" || type === "bonus.paid"
        ? {
            bonusId: randomUUID(),
            amount: "5.000000",
            message: "Thank you: the launch post did great.",
            ...(type === "bonus.paid"
              ? { txHash: `0x${"0".repeat(64)}`, recipient: `0x${"0".repeat(40)}` }
              : {}),
          }
        : {}),
      ...(type === "milestone.changes_requested"
        ? {
            revision: 1,
            message: "Please mention the discount code in the first line.",
            changeRequestId: randomUUID(),
            previous_attributes: { status: "submitted" },
          }
        : {}),
    },
  };
}
