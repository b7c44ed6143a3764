import { describe, expect, it } from "vitest";
import { payoutUnits, scoreToBps, unitsToDecimal, usdcToUnits } from "@/lib/money";

// Property tests of the payout math over many seeded random cases (deterministic).
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = rng(42);
const randomUnits = () => BigInt(Math.floor(rand() * 1e9)) * BigInt(Math.floor(rand() * 1e6) + 1);

describe("payoutUnits", () => {
  it("is floor(amount × bps / 10000), exact in bigint, never above the amount", () => {
    for (let i = 0; i < 20_000; i++) {
      const amount = randomUnits();
      const bps = Math.floor(rand() * 10_001);
      const paid = payoutUnits(amount, bps);
      expect(paid).toBe((amount * BigInt(bps)) / 10_000n);
      expect(paid <= amount).toBe(true);
      expect(paid >= 0n).toBe(true);
      // floor: the remainder is less than one unit's worth of the fraction.
      expect(amount * BigInt(bps) - paid * 10_000n < 10_000n).toBe(true);
    }
  });

  it("pays everything at score 1 and nothing at score 0", () => {
    expect(payoutUnits(80_000_000n, 10_000)).toBe(80_000_000n);
    expect(payoutUnits(80_000_000n, 0)).toBe(0n);
    expect(payoutUnits(80_000_000n, 8_500)).toBe(68_000_000n);
    expect(unitsToDecimal(payoutUnits(80_000_000n, 8_500))).toBe("68.000000");
  });

  it("keeps a deal's total within its budget whatever the scores", () => {
    for (let i = 0; i < 2_000; i++) {
      const amounts = Array.from({ length: 1 + Math.floor(rand() * 6) }, randomUnits);
      const budget = amounts.reduce((a, b) => a + b, 0n);
      const paid = amounts.reduce(
        (sum, a) => sum + payoutUnits(a, Math.floor(rand() * 10_001)),
        0n,
      );
      expect(paid <= budget).toBe(true);
    }
  });

  it("refuses scores outside [0, 10000] and negative amounts", () => {
    expect(() => payoutUnits(1n, 10_001)).toThrow(RangeError);
    expect(() => payoutUnits(1n, -1)).toThrow(RangeError);
    expect(() => payoutUnits(1n, 0.5)).toThrow(RangeError);
    expect(() => payoutUnits(-1n, 1)).toThrow(RangeError);
  });
});

describe("score and amount conversions", () => {
  it("rounds scores to 4 decimals and clamps them", () => {
    expect(scoreToBps(0.85)).toBe(8_500);
    expect(scoreToBps(0.123456)).toBe(1_235);
    expect(scoreToBps(7)).toBe(10_000);
    expect(scoreToBps(-1)).toBe(0);
    expect(scoreToBps(Number.NaN)).toBe(0);
  });

  it("converts USDC numbers to units exactly, refusing more than 6 decimals", () => {
    expect(usdcToUnits(0.1)).toBe(100_000n);
    expect(usdcToUnits(1234.567891)).toBe(1_234_567_891n);
    expect(usdcToUnits(0.0000001)).toBeNull();
    expect(usdcToUnits(Number.NaN)).toBeNull();
    for (let i = 0; i < 5_000; i++) {
      const units = BigInt(Math.floor(rand() * 1e12));
      expect(usdcToUnits(Number(unitsToDecimal(units)))).toBe(units);
    }
  });
});
