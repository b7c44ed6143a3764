import { describe, expect, it } from "vitest";
import {
  calibrate,
  calibrationFor,
  calibrationSchema,
  expectedCalibrationError,
  fitPlatt,
} from "@/lib/verify/calibration";
import { judgementProbability, logprobsOfChoice } from "@/lib/verify/logprobs";
import { recordedCompletion, recordedVerdict } from "./logprob-fixtures";

// The model's own probability for its judgement, read from a chat completion's token
// log-probabilities (a recorded shape), and the Platt calibration that makes it mean what it
// says; both pure functions.

const verdict = { approved: true, score: 0.9, reasoning: "Shows the bottle.", missing: [] };

describe("the judgement's probability from log-probabilities", () => {
  it("reads the approved value's token: renormalised over true and false", () => {
    const body = recordedCompletion(verdict, 0.8);
    const tokens = logprobsOfChoice(body.choices[0]?.logprobs);
    expect(tokens).not.toBeNull();
    expect(judgementProbability(tokens ?? [])).toBeCloseTo(0.8, 6);
    // A rejection's probability is the mass on "false".
    const no = recordedVerdict({ ...verdict, approved: false, missing: ["bottle"] }, 0.3);
    expect(judgementProbability(no.logprobs)).toBeCloseTo(0.7, 6);
  });

  it("works when the value shares a token with the key's punctuation", () => {
    const tokens = [
      { token: '{"approved', logprob: 0, top_logprobs: [] },
      {
        token: '":true',
        logprob: Math.log(0.6),
        top_logprobs: [
          { token: '":true', logprob: Math.log(0.6) },
          { token: '":false', logprob: Math.log(0.3) },
          { token: '": true', logprob: Math.log(0.05) },
          { token: "x", logprob: Math.log(0.05) },
        ],
      },
      { token: ',"score":1}', logprob: 0, top_logprobs: [] },
    ];
    expect(judgementProbability(tokens)).toBeCloseTo(0.65 / 0.95, 6);
  });

  it("the chosen token alone: its own probability; nothing readable: null", () => {
    expect(
      judgementProbability([
        { token: '{"approved":', logprob: 0, top_logprobs: [] },
        { token: "false", logprob: Math.log(0.9), top_logprobs: [] },
      ]),
    ).toBeCloseTo(0.9, 6);
    expect(judgementProbability([{ token: "{}", logprob: 0, top_logprobs: [] }])).toBeNull();
    expect(logprobsOfChoice(null)).toBeNull();
    expect(logprobsOfChoice({ content: [] })).toBeNull();
    expect(logprobsOfChoice({ content: [{ token: 1 }] })).toBeNull();
  });
});

describe("Platt calibration", () => {
  it("fits an overconfident model down to how often it is right", () => {
    // Says 0.99 every time and is right 70 % of the time.
    const points = Array.from({ length: 100 }, (_, i) => ({ p: 0.99, correct: i % 10 < 7 }));
    const c = fitPlatt(points);
    expect(calibrate(c, 0.99)).toBeCloseTo(0.7, 1);
    const before = expectedCalibrationError(
      points.map((x) => ({ confidence: x.p, correct: x.correct })),
    );
    const after = expectedCalibrationError(
      points.map((x) => ({ confidence: calibrate(c, x.p), correct: x.correct })),
    );
    expect(before).toBeCloseTo(0.29, 2);
    expect(after).toBeLessThan(0.02);
  });

  it("keeps the order and separates what the raw probability separates", () => {
    const points = [
      ...Array.from({ length: 40 }, () => ({ p: 0.999, correct: true })),
      ...Array.from({ length: 40 }, (_, i) => ({ p: 0.8, correct: i < 20 })),
    ];
    const c = fitPlatt(points);
    expect(c.a).toBeGreaterThan(0);
    expect(calibrate(c, 0.999)).toBeGreaterThan(0.9);
    expect(calibrate(c, 0.8)).toBeLessThan(0.6);
    expect(calibrate(c, 0.999)).toBeGreaterThan(calibrate(c, 0.8));
  });

  it("with only right (or only wrong) answers there is nothing to fit: the identity", () => {
    expect(fitPlatt([{ p: 0.9, correct: true }])).toEqual({ a: 1, b: 0 });
  });

  it("is read from configuration for the model it was fitted on only", () => {
    const c = calibrationSchema.parse({ model: "gpt-4o-mini", method: "platt", a: 0.5, b: -1 });
    expect(calibrationFor(c, "gpt-4o-mini")).toBe(c);
    expect(calibrationFor(c, "gpt-4o")).toBeNull();
    expect(calibrationFor(undefined, "gpt-4o-mini")).toBeNull();
    expect(
      calibrationSchema.safeParse({ model: "m", method: "histogram", a: 1, b: 0 }).success,
    ).toBe(false);
  });
});
