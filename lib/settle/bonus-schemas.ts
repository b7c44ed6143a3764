import { z } from "zod";
import {
  AMOUNT_RANGE,
  BONUS_MAX_UNITS,
  BONUS_MESSAGE_MAX,
  bonusStatuses,
} from "@/lib/settle/bonus-rules";

// The bonus routes' request and answer shapes (lib/settle/bonuses.ts), also the API
// reference's (lib/openapi.ts).

/** POST /api/deals/:id/bonuses: the amount in USDC base units, as a string of digits. */
export const createBonusBody = z.object({
  amount: z
    .string({
      error: 'must be a string of USDC base units (6 decimals), e.g. "5000000" for 5 USDC',
    })
    .regex(/^\d{1,19}$/, 'must be a whole number of USDC base units, e.g. "5000000" for 5 USDC')
    .transform((v) => BigInt(v))
    .refine((v) => v > 0n && v <= BONUS_MAX_UNITS, AMOUNT_RANGE)
    .meta({ example: "5000000" }),
  message: z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required")
    .max(BONUS_MESSAGE_MAX, `must be at most ${BONUS_MESSAGE_MAX} characters`)
    .refine((v) => !v.includes("\u0000"), "must not contain NUL characters")
    .meta({ example: "Thank you: the launch post did great." }),
});

export const bonusParams = z.object({
  id: z.uuid("must be a UUID"),
  bonusId: z.uuid("must be a UUID"),
});

export const bonusSchema = z
  .object({
    id: z.uuid().describe("The bonus; also its escrow deal's id, under which it is funded"),
    object: z.literal("bonus"),
    dealId: z.uuid().describe("The deal the bonus rewards"),
    amount: z.string().describe("Decimal USDC"),
    amountUnits: z.string().describe("USDC base units"),
    message: z.string().describe("The brand's message: plain text, render it as text"),
    status: z
      .enum(bonusStatuses)
      .describe(
        "awaiting_funding: fund it (funding); funded: the escrow holds it, release it; paying: the release is sent; paid; cancelled or refunded: the money went back to the brand",
      ),
    funding: z
      .string()
      .describe(
        "Fund it like a deal: GET this for the terms (dealRef, amounts, deadline, authorization nonce, deposit address), then fund from a wallet and POST it, or POST …/authorization, or pay the deposit address",
      ),
    deadline: z.string().describe("The escrow deadline of the bonus"),
    fundingTxHash: z.string().nullable(),
    txHash: z.string().nullable().describe("The escrow release that paid the creator"),
    explorerUrl: z.string().nullable(),
    recordHash: z
      .string()
      .describe("keccak256 of the bonus record, carried by the release in place of a verdict hash"),
    createdAt: z.string(),
    fundedAt: z.string().nullable(),
    paidAt: z.string().nullable(),
    poll: z.string().optional().describe("202 only: the bonus's URL, to GET until it is paid"),
  })
  .meta({ id: "Bonus" });

export const bonusResponse = z.object({ bonus: bonusSchema });
/** POST …/bonuses/:bonusId/release: 202 carries `poll` (the bonus's URL) beside the bonus. */
export const bonusReleaseResponse = bonusResponse.extend({
  poll: z.string().optional().describe("202 only: the bonus's URL, to GET until it is paid"),
});
export const bonusListResponse = z.object({
  bonuses: z.array(bonusSchema),
  nextCursor: z.string().nullable(),
});
