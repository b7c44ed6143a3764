// Browser-safe display helpers for chain values.

/** USDC base units for people: 2000000n → "2.00 USDC", 1234567n → "1.234567 USDC". */
export function usdcText(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = (abs / 1_000_000n).toLocaleString("en-US");
  const frac = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${negative ? "−" : ""}${whole}.${frac} USDC`;
}

/** A score in [0,1] as a percentage with at most two decimals: 0.7833 → "78.33%". */
export const scorePercent = (score: number) => `${Number((score * 100).toFixed(2))}%`;
