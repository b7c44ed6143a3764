import { z } from "zod";

// The small field schemas the response shapes share (each shape lives next to the module
// that builds it: lib/deals/serialize.ts, lib/settle/review.ts, lib/webhooks/endpoints.ts, …).
// A leaf module: it imports nothing of the app, so any domain module may use it.

export const iso = z.iso.datetime();
export const decimal = z
  .string()
  .regex(/^\d+\.\d{6}$/)
  .describe("USDC, a decimal string with 6 places");
export const score = z.number().min(0).max(1);
export const nextCursor = z.string().nullable().describe("Pass as ?cursor= for the next page");

// Typed as viem's `0x${string}` (the code's types), checked by the exact pattern.
type Hex = `0x${string}`;
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Hex>;
export const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/) as unknown as z.ZodType<Hex>;
export const units = z.string().regex(/^\d+$/).describe("USDC base units (6 decimals)");

/** `metadata` as returned (lib/metadata.ts). */
export const metadataJson = z
  .record(z.string(), z.string())
  .describe("Your own key-value pairs (up to 20)");
