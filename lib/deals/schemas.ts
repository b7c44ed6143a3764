import { z } from "zod";
import { dealStatuses } from "@/db/schema";
import { usdcToUnits } from "@/lib/money";
import { pageQuery } from "@/lib/pagination";

// Request bodies of the deals API. Requirements are normalised here (hashtags start
// with #, mentions with @) so the deterministic checks compare like with like.

export const platforms = ["instagram", "tiktok", "x", "youtube", "other"] as const;

const tag = (prefix: "#" | "@", pattern: RegExp, what: string) =>
  z
    .string()
    .trim()
    .transform((s) => (s.startsWith(prefix) ? s.slice(1) : s))
    .pipe(z.string().regex(pattern, `must be a ${what} like ${prefix}example`))
    .transform((s) => `${prefix}${s}`);

export const hashtag = tag("#", /^[\p{L}\p{N}_]{1,100}$/u, "hashtag");
export const mention = tag("@", /^[\p{L}\p{N}_.]{1,100}$/u, "handle");

const httpUrl = z
  .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
  .max(2000, "must be at most 2000 characters");

export const requirementsSchema = z.object({
  hashtags: z.array(hashtag).max(20).default([]),
  mentions: z.array(mention).max(20).default([]),
  links: z.array(httpUrl).max(10).default([]),
  criteria: z.array(z.string().trim().min(1).max(500)).max(20).default([]),
});

/** USDC as a JSON number with at most 6 decimals, converted to base units. */
export const usdcAmount = z
  .number({ error: "must be a number of USDC" })
  .positive("must be more than 0")
  .max(1_000_000_000, "must be at most 1,000,000,000 USDC")
  .transform((n, ctx) => {
    const units = usdcToUnits(n);
    if (units === null || units === 0n) {
      ctx.addIssue({ code: "custom", message: "must have at most 6 decimals" });
      return z.NEVER;
    }
    return units;
  });

export const milestoneInput = z.object({
  title: z.string().trim().min(1, "is required").max(200),
  amount: usdcAmount,
  requirements: requirementsSchema.default({ hashtags: [], mentions: [], links: [], criteria: [] }),
  dueAt: z.iso.datetime({ offset: true }).nullish(),
});

export const createDealBody = z.object({
  title: z.string().trim().min(3, "must be at least 3 characters").max(200),
  description: z.string().trim().max(5000).default(""),
  platform: z.enum(platforms).default("other"),
  minScore: z.number().min(0).max(1).default(0.5),
  creatorEmail: z.email("must be an e-mail address").max(320).optional(),
  /**
   * The escrow's deadline (default: 30 days from now). Unreleased milestones become
   * refundable to the brand after it plus the contract's 7-day grace period.
   */
  deadline: z.iso.datetime({ offset: true, message: "must be an ISO date-time" }).optional(),
  /**
   * Days the brand has to settle or decide after each submission; after that the creator
   * may settle it themselves (default 7).
   */
  reviewWindowDays: z
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(60, "must be at most 60 days")
    .default(7),
  milestones: z.array(milestoneInput).min(1, "add at least one milestone").max(20),
});
export type CreateDealInput = z.infer<typeof createDealBody>;

/**
 * GET /api/deals: `open` (the open deals a creator may take), filters, order and a page
 * (`limit` 1..100, default 20; `cursor` from the previous page's `nextCursor`).
 */
export const dealListQuery = pageQuery.extend({
  open: z.enum(["1", "true", "0", "false"]).optional(),
  status: z.enum(dealStatuses).optional(),
  platform: z.enum(platforms).optional(),
  /** Case-insensitive substring of the title or description. */
  search: z.string().trim().max(100).optional(),
  sort: z.enum(["newest", "oldest", "budget"]).default("newest"),
});
export type DealListQuery = z.infer<typeof dealListQuery>;

export const idParams = z.object({ id: z.uuid("must be a UUID") });

export const deliverableBody = z.object({
  url: httpUrl,
  text: z.string().max(20_000).default(""),
  note: z.string().max(2_000).default(""),
});
export type DeliverableInput = z.infer<typeof deliverableBody>;

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hash");
const addressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed address");

/** The brand reports a funding (or cancel) transaction; it is a hint, the contract decides. */
export const txHashBody = z.object({ txHash: hex32.optional() });

export const fundingTermsQuery = z.object({ brand: addressString.optional() });

/** A brand's signed EIP-3009 ReceiveWithAuthorization for gasless funding. */
export const fundingAuthorizationBody = z.object({
  brand: addressString,
  validAfter: z.coerce.number().int().min(0).default(0),
  validBefore: z.coerce.number().int().positive(),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature"),
});
export type FundingAuthorizationInput = z.infer<typeof fundingAuthorizationBody>;
