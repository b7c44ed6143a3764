import { isAddress } from "viem";
import { z } from "zod";
import { dealStatuses } from "@/db/schema";
import { metadataFilter, metadataPatchSchema, metadataSchema } from "@/lib/metadata";
import { usdcToUnits } from "@/lib/money";
import { pageQuery } from "@/lib/pagination";
import {
  AUTO_SETTLE_CONFIDENCE,
  MAX_AUTO_SETTLE_CONFIDENCE,
  MIN_AUTO_SETTLE_CONFIDENCE,
} from "@/lib/verify/confidence";

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

/** How far ahead a due date or deadline may lie: beyond this a date is a typo or a probe. */
export const MAX_YEARS_AHEAD = 5;
const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/**
 * An ISO date-time at most MAX_YEARS_AHEAD years from now. Unbounded, a due date in year
 * 9999 pushed the default deadline (a week later) past PostgreSQL's range: a 500.
 */
const boundedDateTime = (message?: string) =>
  z.iso
    .datetime({ offset: true, ...(message ? { message } : {}) })
    .refine((v) => Date.parse(v) <= Date.now() + MAX_YEARS_AHEAD * YEAR_MS, {
      message: `must be at most ${MAX_YEARS_AHEAD} years from now`,
    });

export const milestoneInput = z.object({
  title: z.string().trim().min(1, "is required").max(200),
  amount: usdcAmount,
  requirements: requirementsSchema.default({ hashtags: [], mentions: [], links: [], criteria: [] }),
  dueAt: boundedDateTime().nullish(),
});

// The deal's fields, shared by create (with defaults) and edit (each optional).
const dealTitle = z.string().trim().min(3, "must be at least 3 characters").max(200);
const dealDescription = z.string().trim().max(5000, "must be at most 5000 characters");
const dealPlatform = z.enum(platforms, { error: "must be one of the listed platforms" });
const dealMinScore = z
  .number({ error: "must be a number between 0 and 1" })
  .min(0, "must be between 0 % and 100 %")
  .max(1, "must be between 0 % and 100 %");
const autoSettleRange = `must be between ${MIN_AUTO_SETTLE_CONFIDENCE * 100} % and ${MAX_AUTO_SETTLE_CONFIDENCE * 100} %`;
/** A fraction like minScore (0.9 = 90 %); bounds and default in lib/verify/confidence.ts. */
const dealAutoSettleConfidence = z
  .number({
    error: `must be a number between ${MIN_AUTO_SETTLE_CONFIDENCE} and ${MAX_AUTO_SETTLE_CONFIDENCE}`,
  })
  .min(MIN_AUTO_SETTLE_CONFIDENCE, autoSettleRange)
  .max(MAX_AUTO_SETTLE_CONFIDENCE, autoSettleRange)
  .describe(
    `The confidence a verdict needs to settle on its own, ${MIN_AUTO_SETTLE_CONFIDENCE}–${MAX_AUTO_SETTLE_CONFIDENCE} (default ${AUTO_SETTLE_CONFIDENCE}, chosen on the eval): below it POST /api/settle answers 409 needs_decision and the brand decides instead of an automatic payment or rejection`,
  );
const dealCreatorEmail = z.email("must be an e-mail address").max(320);
const dealDeadline = boundedDateTime("must be an ISO date-time");
const dealReviewWindowDays = z
  .number({ error: "must be a number of days" })
  .int("must be a whole number of days")
  .min(1, "must be at least 1 day")
  .max(60, "must be at most 60 days");
const dealMilestones = z.array(milestoneInput).min(1, "add at least one milestone").max(20);

/**
 * The deal's FTC disclosure rule (lib/verify/checks.ts): on unless the brand turns it off,
 * explicitly and with a reason the creator sees on the deal's terms.
 */
export const disclosureInput = z
  .object({
    required: z
      .boolean({ error: "must be true or false" })
      .describe(
        "true: every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label; the verifier lists it under `missing` otherwise",
      ),
    reason: z
      .string()
      .trim()
      .min(10, "must say why in at least 10 characters")
      .max(500, "must be at most 500 characters")
      .optional()
      .describe(
        "Required when `required` is false, refused otherwise: why this deal's posts need no disclosure (e.g. they go on the brand's own account). Shown to the creator with the deal's terms",
      ),
  })
  .superRefine((d, ctx) => {
    if (!d.required && d.reason === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["reason"],
        message:
          "is required to turn disclosure off: say why this deal's posts need no #ad (at least 10 characters)",
      });
    if (d.required && d.reason !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["reason"],
        message: "is only for turning disclosure off (required: false)",
      });
  });
export type DisclosureInput = z.infer<typeof disclosureInput>;
/** A new deal's milestones may carry metadata (changed later with PATCH /api/milestones/:id). */
const newDealMilestones = z
  .array(milestoneInput.extend({ metadata: metadataSchema.optional() }))
  .min(1, "add at least one milestone")
  .max(20);

export const createDealBody = z.object({
  title: dealTitle,
  description: dealDescription.default(""),
  platform: dealPlatform.default("other"),
  minScore: dealMinScore.default(0.5),
  autoSettleConfidence: dealAutoSettleConfidence.default(AUTO_SETTLE_CONFIDENCE),
  creatorEmail: dealCreatorEmail.optional(),
  /**
   * The escrow's deadline (default: 30 days from now). Unreleased milestones become
   * refundable to the brand after it plus the contract's 7-day grace period.
   */
  deadline: dealDeadline.optional(),
  /**
   * Days the brand has to settle or decide after each submission; after that the creator
   * may settle it themselves (default 7).
   */
  reviewWindowDays: dealReviewWindowDays.default(7),
  /** The FTC disclosure rule (default: required). */
  disclosure: disclosureInput.default({ required: true }),
  milestones: newDealMilestones,
  metadata: metadataSchema.optional(),
});
export type CreateDealInput = z.infer<typeof createDealBody>;

/**
 * PATCH /api/deals/:id: the fields to change, each as create takes it; a field left out
 * stays as it is. `milestones` replaces the whole list (in order: the escrow's indexes).
 * `creatorEmail: null` opens an invited deal to every creator. Once the deal is funded the
 * escrow holds its deadline and each milestone's amount: those must stay as they are.
 */
export const editDealBody = z.object({
  title: dealTitle.optional(),
  description: dealDescription.optional(),
  platform: dealPlatform.optional(),
  minScore: dealMinScore.optional(),
  autoSettleConfidence: dealAutoSettleConfidence.optional(),
  creatorEmail: dealCreatorEmail.nullable().optional(),
  deadline: dealDeadline.optional(),
  reviewWindowDays: dealReviewWindowDays.optional(),
  disclosure: disclosureInput.optional(),
  milestones: dealMilestones.optional(),
  /** Merged into the deal's metadata ("" removes a key); may change in any status. */
  metadata: metadataPatchSchema.optional(),
});
export type EditDealInput = z.infer<typeof editDealBody>;

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
  metadata: metadataFilter.optional(),
});

/** PATCH /api/milestones/:id: the milestone's metadata (merged; "" removes a key). */
export const milestonePatchBody = z.object({ metadata: metadataPatchSchema });
export type DealListQuery = z.infer<typeof dealListQuery>;

export const idParams = z.object({ id: z.uuid("must be a UUID") });

export const acceptBody = z.object({
  termsVersion: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "The deal's termsVersion the creator reviewed: if the brand has edited the deal since, 409 terms_changed",
    ),
});

export const deliverableBody = z.object({
  url: httpUrl,
  text: z.string().max(20_000).default(""),
  note: z.string().max(2_000).default(""),
});
export type DeliverableInput = z.infer<typeof deliverableBody>;

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hash");
const addressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed address");

/**
 * An address money is sent back to: EIP-55 checked when mixed-case (viem's strict isAddress: a
 * mistyped character is refused, never silently normalised) and never the zero address (the
 * server also refuses this deployment's contracts: lib/escrow/deposit.ts).
 */
const refundAddressString = addressString
  .refine((v) => isAddress(v, { strict: true }), "has a wrong EIP-55 checksum (mixed case)")
  .refine((v) => !/^0x0{40}$/.test(v), "must not be the zero address: money sent there is lost");

/** The brand reports a funding (or cancel) transaction; it is a hint, the contract decides. */
export const txHashBody = z.object({ txHash: hex32.optional() });

export const fundingTermsQuery = z.object({ brand: addressString.optional() });

/**
 * The brand reports a funding: the wallet it funded from and the transaction (a hint). The
 * escrow keys a deal by its funder, so the wallet names the one key that is this deal's.
 */
export const fundingReportBody = z.object({
  txHash: hex32.optional(),
  brand: addressString.optional(),
});

/**
 * The brand asks for its deal's deposit address, naming where money that is not used goes
 * back (an exchange deposit address or a wallet; default: its own wallet).
 */
export const depositRequestBody = z.object({ refundAddress: refundAddressString.optional() });

/** A brand's signed EIP-3009 ReceiveWithAuthorization for gasless funding. */
export const fundingAuthorizationBody = z.object({
  brand: addressString,
  validAfter: z.coerce.number().int().min(0).default(0),
  validBefore: z.coerce.number().int().positive(),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature"),
});
export type FundingAuthorizationInput = z.infer<typeof fundingAuthorizationBody>;

/** The longest message body, in characters. */
export const MESSAGE_MAX_CHARS = 4000;

/** A message to the other party of a deal (lib/deals/messages.ts): plain text. */
export const messageBody = z.object({
  body: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "Write a message")
    .max(MESSAGE_MAX_CHARS, "Keep the message under 4,000 characters")
    // PostgreSQL refuses NUL in text (route() refuses it in JSON bodies; forms come here too).
    .refine((s) => !s.includes("\u0000"), "must not contain a NUL (\\u0000) character"),
});

export const messageParams = z.object({
  id: z.uuid("must be a UUID"),
  messageId: z.uuid("must be a UUID"),
});

/** The multipart form of a message with a file (the reference's description of it). */
export const messageUploadBody = messageBody.extend({
  file: z
    .string()
    .optional()
    .describe(
      "A file (binary): JPEG, PNG or WebP image, MP4, MOV or WebM video; its real type is read from its bytes, metadata is removed",
    )
    .meta({ format: "binary" }),
});

/** The caller has read the thread up to this message (default: all of it). */
export const messagesReadBody = z.object({
  upTo: z.uuid("must be a message id").optional(),
});
