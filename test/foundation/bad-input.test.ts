import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { GET as dealGET, PATCH as dealPATCH } from "@/app/api/deals/[id]/route";
import { POST as dealsPOST } from "@/app/api/deals/route";
import { POST as deliverablePOST } from "@/app/api/milestones/[id]/deliverable/route";
import { GET as reputationGET } from "@/app/api/reputation/[wallet]/route";
import { call } from "../helpers/http";
import { makeUser } from "../helpers/users";

// Bad input on real routes is the caller's 400, never a 500: a NUL character (which
// PostgreSQL refuses in text columns) anywhere in a body, and path ids that are not what
// they claim (bad percent-encoding arriving undecoded, NUL).

const nul = "\u0000";
const deal = (over: Record<string, unknown> = {}) => ({
  title: "NUL test deal",
  description: "fine",
  milestones: [{ title: "One", amount: 10, requirements: { criteria: ["ok"] } }],
  ...over,
});

function expectNulRejected(res: { status: number; body: any }, path: string[]) {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  expect(res.body.error.message).toContain(`${path.join(".")} contains a NUL character`);
  expect(res.body.error.details).toEqual([
    { path, message: expect.stringContaining("NUL"), code: "nul_character" },
  ]);
}

describe("a NUL character in a body → 400 invalid_request naming the field", () => {
  it("in a top-level text field (POST /api/deals description)", async () => {
    const { token } = await makeUser("organization");
    const res = await call(dealsPOST, { token, body: deal({ description: `a${nul}b` }) });
    expectNulRejected(res, ["description"]);
  });

  it("deep in the body (a milestone's criteria)", async () => {
    const { token } = await makeUser("organization");
    const body = deal({
      milestones: [{ title: "One", amount: 10, requirements: { criteria: ["ok", `x${nul}`] } }],
    });
    const res = await call(dealsPOST, { token, body });
    expectNulRejected(res, ["milestones", "0", "requirements", "criteria", "1"]);
  });

  it("in a key, and in fields no schema reads", async () => {
    const { token } = await makeUser("organization");
    expectNulRejected(await call(dealsPOST, { token, body: { ...deal(), [`k${nul}`]: 1 } }), [
      `k${nul}`,
    ]);
    expectNulRejected(await call(dealsPOST, { token, body: { ...deal(), extra: nul } }), ["extra"]);
  });

  it("on a deliverable and on sign-in, before anything is looked up", async () => {
    const { token } = await makeUser("creator");
    const res = await call(deliverablePOST, {
      token,
      params: { id: randomUUID() },
      body: { url: "https://example.com/post", note: `note${nul}` },
    });
    expectNulRejected(res, ["note"]);
    expectNulRejected(await call(sessionPOST, { body: { idToken: `a${nul}b` } }), ["idToken"]);
  });
});

describe("bad path ids → 400, not 500", () => {
  it.each([
    ["bad percent-encoding left undecoded", "%E0%A4%A"],
    ["an encoded NUL", "%00"],
    ["a decoded NUL", `6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5${nul}`],
    ["a lone surrogate", "\uD800"],
  ])("GET /api/deals/:id with %s", async (_name, id) => {
    const { token } = await makeUser("creator");
    const res = await call(dealGET, { token, params: { id } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("GET /api/reputation/:wallet with bad percent-encoding", async () => {
    const { token } = await makeUser("creator");
    const res = await call(reputationGET, { token, params: { wallet: "0x%E0%A4%A" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });
});

describe("dates far ahead → 400 naming the field, never a 500 (issue 21, point 7)", () => {
  // A due date from 9999-12-25 on pushed the default deadline (a week later) past year 9999,
  // which PostgreSQL refuses: the only 5xx in 6,114 fuzzed requests.
  const farDates = ["9999-12-25T00:00:00Z", "9999-12-31T23:59:59.999Z", "2100-01-01T00:00:00Z"];

  function expectTooFar(res: { status: number; body: any }, path: string[]) {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details).toContainEqual(
      expect.objectContaining({ path, message: "must be at most 5 years from now" }),
    );
  }

  it("a milestone's due date on create", async () => {
    const { token } = await makeUser("organization");
    for (const dueAt of farDates) {
      const body = deal({ milestones: [{ title: "One", amount: 10, dueAt }] });
      expectTooFar(await call(dealsPOST, { token, body }), ["milestones", "0", "dueAt"]);
    }
  });

  it("the deal's deadline on create", async () => {
    const { token } = await makeUser("organization");
    for (const deadline of farDates)
      expectTooFar(await call(dealsPOST, { token, body: deal({ deadline }) }), ["deadline"]);
  });

  it("the deadline and a due date on edit, leaving the deal as it was", async () => {
    const { token } = await makeUser("organization");
    const created = await call(dealsPOST, { token, body: deal() });
    expect(created.status).toBe(201);
    const id = created.body.id ?? created.body.deal?.id;
    for (const dueAt of farDates) {
      const body = { milestones: [{ title: "One", amount: 10, dueAt }] };
      expectTooFar(await call(dealPATCH, { token, params: { id }, body }), [
        "milestones",
        "0",
        "dueAt",
      ]);
      expectTooFar(await call(dealPATCH, { token, params: { id }, body: { deadline: dueAt } }), [
        "deadline",
      ]);
    }
    const after = await call(dealGET, { token, params: { id } });
    expect(after.status).toBe(200);
    expect(after.body.deal.milestones[0].dueAt ?? null).toBeNull();
  });

  it("a due date four years ahead is still fine", async () => {
    const { token } = await makeUser("organization");
    const dueAt = new Date(Date.now() + 4 * 365 * 24 * 3600 * 1000).toISOString();
    const res = await call(dealsPOST, {
      token,
      body: deal({ milestones: [{ title: "One", amount: 10, dueAt }] }),
    });
    expect(res.status).toBe(201);
  });
});
