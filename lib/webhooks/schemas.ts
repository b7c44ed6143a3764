import { z } from "zod";
import { dealEventTypes } from "@/db/schema";
import { metadataPatchSchema, metadataSchema } from "@/lib/metadata";

// Request bodies of the webhook endpoints API (also the API reference's schemas).

/** The event types an endpoint may subscribe to: every event of the activity log. */
export const webhookEventTypes = dealEventTypes;

const eventTypesField = z
  .array(z.enum(dealEventTypes))
  .max(dealEventTypes.length)
  .describe("Event types to deliver; empty or omitted = all");

export const createEndpointBody = z
  .object({
    url: z
      .string()
      .max(2048)
      .describe(
        "https URL on a public address that receives the events (a deployment's FETCH_ALLOWED_HOSTS may exempt local receivers, e.g. http://127.0.0.1:4000)",
      ),
    eventTypes: eventTypesField.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict();

export const updateEndpointBody = z
  .object({
    url: z.string().max(2048).optional(),
    eventTypes: eventTypesField.optional(),
    enabled: z.boolean().optional(),
    metadata: metadataPatchSchema.optional(),
  })
  .strict()
  .refine(
    (b) => Object.keys(b).length > 0,
    "Send at least one of url, eventTypes, enabled, metadata.",
  );
