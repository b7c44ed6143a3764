// The bonus rules both the route schemas and the domain (lib/settle/bonuses.ts) apply.

/** A bonus message's longest length, in characters (after trimming). */
export const BONUS_MESSAGE_MAX = 1000;
/** The largest bonus, in USDC base units: 1,000,000 USDC. */
export const BONUS_MAX_UNITS = 1_000_000_000_000n;
export const AMOUNT_RANGE = `must be between 1 and ${BONUS_MAX_UNITS} base units (1,000,000 USDC)`;

export const bonusStatuses = [
  "awaiting_funding",
  "funded",
  "paying",
  "paid",
  "cancelled",
  "refunded",
] as const;
export type BonusStatus = (typeof bonusStatuses)[number];
