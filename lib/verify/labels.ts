import type { VerdictSource } from "@/db/schema";

// Who judged a verdict, in words people read on the verdict card and in the API: the
// deterministic rubric (and the evidence gate) is a "Rule check", one model is an
// "AI review (its id)", several are a "Panel of N models", a person is the brand.

export const RULE_CHECK = "Rule check";
export const BRAND_DECISION = "Brand decision";

/** The stored model id of a panel: "panel:" and its members' ids, comma-separated. */
export function panelModelId(ids: string[]): string {
  return `panel:${ids.join(",")}`;
}

export function verifierLabel(model: string, source: VerdictSource): string {
  if (source === "rubric") return RULE_CHECK;
  if (source === "brand_decision") return BRAND_DECISION;
  if (model.startsWith("panel:")) {
    const n = model.slice("panel:".length).split(",").filter(Boolean).length;
    return `Panel of ${n} models`;
  }
  return `AI review (${model})`;
}
