import { z } from "zod";

// Turns a model's raw probability for its judgement (lib/verify/logprobs.ts) into a
// confidence that means what it says: of the verdicts given confidence c, about c agree with
// a person. Raw token probabilities of LLMs are not that (they are usually overconfident),
// so a raw probability is never used on its own: without a calibration fitted for the
// configured model, a model's judgement stays UNCERTAIN (lib/verify/confidence.ts).
//
// Method: Platt scaling, confidence = σ(a · logit(p) + b), fitted on the eval's tune split
// only (npm run eval) and measured on the held-out split. Two parameters, monotone (a more
// confident model is never made less confident than a less confident one), and it works from
// a few dozen judged cases, where histogram binning (one free rate per bin) would leave most
// bins nearly empty. Platt's smoothed targets ((N₊+1)/(N₊+2) and 1/(N₋+2)) instead of 1 and 0
// keep a small or perfectly separated set from driving the fit to certainty.
//
// Stored by configuration: AI_CALIBRATION (lib/env.ts) holds the JSON `npm run eval` prints,
// for the model it was fitted on; another model's calibration is not used.

export const calibrationSchema = z.object({
  /** The model id it was fitted for (AI_MODEL / AI_GATEWAY_MODEL). */
  model: z.string().min(1),
  method: z.literal("platt"),
  a: z.number().finite(),
  b: z.number().finite(),
  /** How many tune-split cases it was fitted on (informational). */
  cases: z.number().int().nonnegative().optional(),
});
export type Calibration = z.infer<typeof calibrationSchema>;

const EPSILON = 1e-6;
const clip = (p: number) => Math.min(1 - EPSILON, Math.max(EPSILON, p));
const logit = (p: number) => Math.log(clip(p) / (1 - clip(p)));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The calibrated confidence of a raw probability. */
export function calibrate(c: Pick<Calibration, "a" | "b">, p: number): number {
  return sigmoid(c.a * logit(p) + c.b);
}

/** A judged case: the model's raw probability for its judgement, and whether it was right. */
export type CalibrationPoint = { p: number; correct: boolean };

/** Pull of the fit towards the identity (a = 1, b = 0), as a Gaussian prior on the two. */
const PRIOR = 1;

/**
 * Platt scaling by Newton's method (with backtracking) on the log-loss of σ(a · logit(p) + b)
 * against Platt's smoothed targets, plus a weak pull towards the identity so that a set with
 * one raw value, or perfectly separated, still has one answer. Without both right and wrong
 * cases there is nothing to fit: the identity (a = 1, b = 0).
 */
export function fitPlatt(points: CalibrationPoint[]): { a: number; b: number } {
  const positives = points.filter((x) => x.correct).length;
  const negatives = points.length - positives;
  if (positives === 0 || negatives === 0) return { a: 1, b: 0 };
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (negatives + 2);
  const data = points.map((x) => ({ x: logit(x.p), t: x.correct ? hi : lo }));
  const loss = (a: number, b: number) => {
    let sum = (PRIOR / 2) * ((a - 1) ** 2 + b ** 2);
    for (const { x, t } of data) {
      const z = a * x + b;
      // −t·log σ(z) − (1−t)·log(1−σ(z)), computed without overflow.
      sum += Math.max(z, 0) - t * z + Math.log1p(Math.exp(-Math.abs(z)));
    }
    return sum;
  };
  let a = 1;
  let b = 0;
  let current = loss(a, b);
  for (let iteration = 0; iteration < 200; iteration++) {
    let ga = PRIOR * (a - 1);
    let gb = PRIOR * b;
    let haa = PRIOR;
    let hab = 0;
    let hbb = PRIOR;
    for (const { x, t } of data) {
      const q = sigmoid(a * x + b);
      const w = q * (1 - q);
      ga += (q - t) * x;
      gb += q - t;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    let step = 1;
    let next = loss(a - da, b - db);
    while (next > current && step > 1e-8) {
      step /= 2;
      next = loss(a - step * da, b - step * db);
    }
    if (next > current) break;
    a -= step * da;
    b -= step * db;
    const gained = current - next;
    current = next;
    if (gained < 1e-12) break;
  }
  return { a, b };
}

/**
 * Expected calibration error over equal-width bins of confidence: the mean gap between how
 * sure the verdicts in a bin were and how often they were right, weighted by the bin's size.
 */
export function expectedCalibrationError(
  points: { confidence: number; correct: boolean }[],
  bins = 10,
): number {
  if (points.length === 0) return 0;
  const sums = Array.from({ length: bins }, () => ({ n: 0, conf: 0, right: 0 }));
  for (const x of points) {
    const i = Math.min(bins - 1, Math.floor(x.confidence * bins));
    const bin = sums[i] as { n: number; conf: number; right: number };
    bin.n++;
    bin.conf += x.confidence;
    bin.right += x.correct ? 1 : 0;
  }
  return sums.reduce(
    (err, bin) =>
      bin.n === 0 ? err : err + ((bin.n / points.length) * Math.abs(bin.right - bin.conf)) / bin.n,
    0,
  );
}

/** The configured calibration when it was fitted for this model, else null (not trusted). */
export function calibrationFor(
  configured: Calibration | undefined,
  modelId: string,
): Calibration | null {
  return configured && configured.model === modelId ? configured : null;
}
