import { z } from "zod";
import { AppError } from "@/lib/errors";

// `metadata`: the integrator's own key-value pairs on deals, milestones, webhook endpoints and
// API keys (its order id, its campaign), Stripe-style. Strings only, at most 20 pairs, a key
// at most 40 characters of [A-Za-z0-9_.-] and a value at most 500 characters (the contract).
// Set on create; on update the pairs sent are merged in and a key sent with "" is removed.
// Returned on every read; the deal list finds deals by one exact pair
// (`GET /api/deals?metadata=key:value`).

export const METADATA_MAX_KEYS = 20;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;

export type Metadata = Record<string, string>;

const metadataKey = z
  .string()
  .min(1, "must not be empty")
  .max(METADATA_MAX_KEY_LENGTH, `must be at most ${METADATA_MAX_KEY_LENGTH} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, "may hold only letters, digits, _ . and -");

const tooMany = `must hold at most ${METADATA_MAX_KEYS} keys`;

/** `metadata` on create: the pairs to store. */
export const metadataSchema = z
  .record(
    metadataKey,
    z
      .string()
      .max(METADATA_MAX_VALUE_LENGTH, `must be at most ${METADATA_MAX_VALUE_LENGTH} characters`),
  )
  .refine((m) => Object.keys(m).length <= METADATA_MAX_KEYS, tooMany)
  .describe(
    `Your own key-value pairs (at most ${METADATA_MAX_KEYS}; keys up to ${METADATA_MAX_KEY_LENGTH} characters of A-Za-z0-9_.-, values up to ${METADATA_MAX_VALUE_LENGTH} characters)`,
  );

/** `metadata` on update: merged into what is stored; a key sent with "" is removed. */
export const metadataPatchSchema = metadataSchema.describe(
  'Pairs merged into the stored metadata; a key sent with "" is removed',
);

/**
 * 400 when the pairs stored after an update's merge (db/queries/metadata.ts) are too many:
 * call it inside the update's transaction, so the refused merge rolls back.
 */
export function assertMetadataSize(merged: Metadata): void {
  if (Object.keys(merged).length > METADATA_MAX_KEYS)
    throw new AppError("invalid_request", `The request body is invalid: metadata ${tooMany}.`, {
      details: [{ path: ["metadata"], message: tooMany, code: "too_big" }],
    });
}

/** `key:value` (the deal list's `metadata` filter) as one pair. */
export const metadataFilter = z
  .string()
  .max(METADATA_MAX_KEY_LENGTH + 1 + METADATA_MAX_VALUE_LENGTH)
  .regex(/^[A-Za-z0-9_.-]{1,40}:/, "must be key:value")
  .transform((s) => {
    const at = s.indexOf(":");
    return { key: s.slice(0, at), value: s.slice(at + 1) };
  })
  .describe("key:value — only deals whose metadata holds exactly this pair");
