import { formatUnits, parseUnits } from "viem";

// USDC has 6 decimals. Amounts live as bigint base units; they become JSON numbers only
// where the spec says so (milestone.amount, deal.budget) and decimal strings everywhere
// the service computes an amount (payouts, drips, paid-so-far).

export const USDC_DECIMALS = 6;
export const BPS = 10_000n;

/** A JSON number of USDC (at most 6 decimals) → base units; null when it is not exact. */
export function usdcToUnits(amount: number): bigint | null {
  if (!Number.isFinite(amount) || amount < 0) return null;
  const fixed = amount.toFixed(USDC_DECIMALS);
  if (Number(fixed) !== amount) return null; // more than 6 decimals, or float noise
  return parseUnits(fixed, USDC_DECIMALS);
}

/** Base units → a JSON number of USDC (exact for any amount below ~9e9 USDC). */
export function unitsToNumber(units: bigint): number {
  return Number(formatUnits(units, USDC_DECIMALS));
}

/** Base units → a decimal string with all 6 decimals, e.g. "68.000000". */
export function unitsToDecimal(units: bigint, decimals = USDC_DECIMALS): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / 10n ** BigInt(USDC_DECIMALS);
  const frac = (abs % 10n ** BigInt(USDC_DECIMALS)).toString().padStart(USDC_DECIMALS, "0");
  return `${negative ? "-" : ""}${whole}.${frac.slice(0, decimals)}`;
}

/** A score in [0,1] → integer basis points, rounded to 4 decimals as the contract says. */
export function scoreToBps(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(10_000, Math.max(0, Math.round(score * 10_000)));
}

export const bpsToScore = (bps: number): number => bps / 10_000;

/** The payout for a milestone: floor(amountUnits × scoreBps / 10000), never above the amount. */
export function payoutUnits(amountUnits: bigint, scoreBps: number): bigint {
  if (amountUnits < 0n) throw new RangeError("amount must not be negative");
  if (!Number.isInteger(scoreBps) || scoreBps < 0 || scoreBps > 10_000)
    throw new RangeError("scoreBps must be an integer in [0, 10000]");
  return (amountUnits * BigInt(scoreBps)) / BPS;
}
