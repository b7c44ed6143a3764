import type { LanguageModel } from "ai";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as meRoute from "@/app/api/auth/me/route";
import * as verifyRoute from "@/app/api/verify/route";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import { answering, approve, submittedMilestone, textResult } from "./fixtures";

// A slow model must not hold the database: no transaction or lock spans the model call.
// Before, the verdict was computed inside a transaction; on PGlite (one connection) every
// other request — even GET /api/auth/me — queued behind the model (11 ms → 29 s seen).

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

describe("a model call in progress", () => {
  it("does not stall other requests; the verdict lands once the model answers", async () => {
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
      id: "test/slow",
      model: answering(async () => {
        modelCalled();
        await answered; // held until this test has made its other requests
        return textResult(JSON.stringify(approve));
      }),
    };

    const verifying = call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });
    await called;
    // While the model is held: other requests, and a concurrent verify of the same revision
    // (which waits for the stored verdict instead of calling the model a second time).
    const concurrent = call(verifyRoute.POST, { token: creator.token, body: { milestoneId } });
    const me = await call(meRoute.GET, { token: creator.token });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(creator.user.id);
    let settled = false;
    void verifying.finally(() => {
      settled = true;
    });
    expect(settled).toBe(false); // the model is still thinking

    answer();
    const [first, second] = await Promise.all([verifying, concurrent]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });
});
