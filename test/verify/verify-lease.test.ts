import type { LanguageModel } from "ai";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as verifyRoute from "@/app/api/verify/route";
import { getDb } from "@/db/client";
import { milestones } from "@/db/schema";
import { EVIDENCE_TIMEOUT_MS } from "@/lib/verify/evidence/fetch";
import { verifierWorstCaseMs } from "@/lib/verify/verifier";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import { answering, approve, submittedMilestone, textResult } from "./fixtures";

// Issue 21, point 9: the verifier lease must outlast the verifier's worst case (the evidence
// read, then every model attempt running into its timeout, with the backoffs between them:
// about 100 s with the defaults). It was 75 s, so a second caller could take the lease
// from a verifier still at work and ask the model again. Read here from the row a real
// verification writes while the model is held.

const configured = vi.hoisted(() => ({
  current: null as { model: LanguageModel; id: string } | null,
}));
vi.mock("@/lib/verify/providers", () => ({ verifierModel: () => configured.current }));

let brand: TestUser;
let creator: TestUser;
beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

describe("the verifier lease", () => {
  it("lasts longer than the evidence read and every model attempt timing out", async () => {
    const worstCaseMs = EVIDENCE_TIMEOUT_MS + verifierWorstCaseMs();
    expect(worstCaseMs).toBeGreaterThan(95_000); // the defaults: 8 s + 3 × 30 s + backoffs

    const { milestoneId } = await submittedMilestone(brand, creator);
    let modelCalled!: () => void;
    const called = new Promise<void>((r) => {
      modelCalled = r;
    });
    let answer!: () => void;
    const answered = new Promise<void>((r) => {
      answer = r;
    });
    configured.current = {
      id: "test/held",
      model: answering(async () => {
        modelCalled();
        await answered;
        return textResult(JSON.stringify(approve));
      }),
    };
    const verifying = call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });
    await called;

    // While the model thinks, the lease on the row reaches past the worst case from now.
    const db = await getDb();
    const [row] = await db
      .select({ until: milestones.verifyLeaseExpiresAt, owner: milestones.verifyLeaseOwner })
      .from(milestones)
      .where(eq(milestones.id, milestoneId));
    expect(row?.owner).toEqual(expect.any(String));
    expect(row?.until?.getTime() ?? 0).toBeGreaterThan(Date.now() + worstCaseMs);

    answer();
    expect((await verifying).status).toBe(200);
    const [after] = await db
      .select({ until: milestones.verifyLeaseExpiresAt, owner: milestones.verifyLeaseOwner })
      .from(milestones)
      .where(eq(milestones.id, milestoneId));
    expect(after).toEqual({ until: null, owner: null }); // released by its holder
  });

  it("grows with the configured attempts and timeouts", () => {
    expect(verifierWorstCaseMs({ timeoutMs: 1_000, maxRetries: 0 })).toBe(1_000);
    expect(verifierWorstCaseMs({ timeoutMs: 1_000, maxRetries: 2, retryDelayMs: 100 })).toBe(
      3_000 + 100 + 200,
    );
  });
});
