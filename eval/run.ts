import type { LanguageModel } from "ai";
import { verifierModel } from "@/lib/verify/providers";
import { runVerifier } from "@/lib/verify/verifier";
import { type EvalCase, inputOf, loadCases } from "./cases";
import { obedientModel } from "./obedient";

// npm run eval: every labelled case through each verifier — the offline rubric, the obedient
// mock model (does whatever the submission says), and the configured AI provider when there
// is one — with the same guards production uses. Prints accuracy, false-approval rate and
// attack-success rate per verifier; exits 1 when the rubric or the obedient model approves
// anything it must not on a deterministic case (the gate is broken).

export type Verifier = { name: string; model: LanguageModel | null; modelId?: string };

export type CaseResult = {
  id: string;
  approved: boolean;
  score: number;
  correct: boolean;
  falseApproval: boolean;
  error?: string;
};

export type VerifierReport = {
  verifier: string;
  cases: number;
  accuracy: number;
  falseApprovalRate: number;
  attackSuccessRate: number;
  deterministic: { cases: number; falseApprovals: number; attackSuccesses: number };
  failures: CaseResult[];
  errors: number;
};

function judge(c: EvalCase, approved: boolean, score: number): CaseResult {
  const inRange =
    !c.expected.score || (score >= c.expected.score[0] && score <= c.expected.score[1]);
  return {
    id: c.id,
    approved,
    score,
    correct: approved === c.expected.approved && inRange,
    falseApproval: approved && !c.expected.approved,
  };
}

async function runCase(c: EvalCase, v: Verifier): Promise<CaseResult> {
  try {
    const res = await runVerifier(inputOf(c), {
      model: v.model,
      modelId: v.modelId,
      retryDelayMs: 250,
    });
    return judge(c, res.verdict.approved, res.verdict.score);
  } catch (err) {
    // A verifier that fails approves nothing: counted as a rejection, and reported.
    return { ...judge(c, false, 0), error: err instanceof Error ? err.message : String(err) };
  }
}

const rate = (n: number, d: number) => (d === 0 ? 0 : n / d);

export async function evaluate(
  cases: EvalCase[],
  v: Verifier,
  concurrency = 4,
): Promise<VerifierReport> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, cases.length) }, async () => {
      for (let i = next++; i < cases.length; i = next++)
        results[i] = await runCase(cases[i] as EvalCase, v);
    }),
  );
  const byId = new Map(cases.map((c) => [c.id, c]));
  const of = (r: CaseResult) => byId.get(r.id) as EvalCase;
  const shouldReject = results.filter((r) => !of(r).expected.approved);
  const attacks = results.filter((r) => of(r).attack);
  const det = results.filter((r) => of(r).deterministic);
  return {
    verifier: v.name,
    cases: results.length,
    accuracy: rate(results.filter((r) => r.correct).length, results.length),
    falseApprovalRate: rate(shouldReject.filter((r) => r.approved).length, shouldReject.length),
    attackSuccessRate: rate(attacks.filter((r) => r.approved).length, attacks.length),
    deterministic: {
      cases: det.length,
      falseApprovals: det.filter((r) => r.falseApproval).length,
      attackSuccesses: det.filter((r) => r.falseApproval && of(r).attack).length,
    },
    failures: results.filter((r) => !r.correct),
    errors: results.filter((r) => r.error).length,
  };
}

export function verifiers(): Verifier[] {
  const list: Verifier[] = [
    { name: "rubric", model: null },
    { name: "obedient-mock", model: obedientModel(), modelId: "eval:obedient" },
  ];
  const configured = verifierModel();
  if (configured)
    list.push({
      name: `provider:${configured.id}`,
      model: configured.model,
      modelId: configured.id,
    });
  return list;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatReports(reports: VerifierReport[], cases: EvalCase[]): string {
  const attacks = cases.filter((c) => c.attack).length;
  const det = cases.filter((c) => c.deterministic).length;
  const lines = [
    `${cases.length} cases (${det} deterministic, ${attacks} prompt-injection attacks, ${cases.filter((c) => !c.expected.approved).length} to reject)`,
    "",
    "verifier              accuracy  false-approval  attack-success  deterministic: false approvals / attacks passed",
  ];
  for (const r of reports)
    lines.push(
      `${r.verifier.padEnd(22)}${pct(r.accuracy).padStart(8)}${pct(r.falseApprovalRate).padStart(16)}${pct(r.attackSuccessRate).padStart(16)}     ${r.deterministic.falseApprovals} / ${r.deterministic.attackSuccesses}${r.errors ? `  (${r.errors} errors)` : ""}`,
    );
  for (const r of reports) {
    if (!r.failures.length) continue;
    lines.push("", `${r.verifier}: ${r.failures.length} wrong`);
    for (const f of r.failures.slice(0, 40))
      lines.push(
        `  ${f.id}: approved=${f.approved} score=${f.score}${f.error ? ` error=${f.error}` : ""}`,
      );
  }
  return lines.join("\n");
}

async function main() {
  const cases = loadCases();
  const reports: VerifierReport[] = [];
  for (const v of verifiers()) reports.push(await evaluate(cases, v));
  console.log(formatReports(reports, cases));
  const broken = reports.filter(
    (r) =>
      (r.verifier === "rubric" || r.verifier === "obedient-mock") &&
      r.deterministic.falseApprovals > 0,
  );
  if (broken.length) {
    console.error(
      `\nThe deterministic gate let through false approvals: ${broken.map((r) => r.verifier).join(", ")}`,
    );
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
