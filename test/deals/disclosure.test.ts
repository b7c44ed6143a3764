import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as dealsRoute from "@/app/api/deals/route";
import { getDb } from "@/db/client";
import { dealEvents, deals } from "@/db/schema";
import { dealResponse } from "@/lib/deals/serialize";
import { dealDetailResponse } from "@/lib/settle/review";
import { fundDeal } from "../helpers/fund-deal";
import { type CallResult, call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// The deal's disclosure rule through the real deal routes, on the real database: on by
// default, off only explicitly and with a reason (which the creator sees with the terms);
// an edit that changes it is an edit of the terms (termsVersion, one `edited` event naming
// it); the database refuses a rule that is off without a reason.

let brand: TestUser;
let creator: TestUser;

const body = (extra: Record<string, unknown> = {}) => ({
  title: "Disclosure campaign",
  platform: "instagram",
  milestones: [{ title: "Post", amount: 10, requirements: { hashtags: ["#launch"] } }],
  ...extra,
});

const create = (extra: Record<string, unknown> = {}) =>
  call(dealsRoute.POST, { token: brand.token, body: body(extra) });

const patch = (dealId: string, b: unknown) =>
  call(dealRoute.PATCH, { method: "PATCH", params: { id: dealId }, body: b, token: brand.token });

const REASON = "The posts go on our own brand account, which is plainly an ad.";

function expectInvalid(res: CallResult, path: string[], message: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  expect(res.body.error.details).toContainEqual(
    expect.objectContaining({ path, message: expect.stringMatching(message) }),
  );
}

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

describe("the deal's disclosure rule", () => {
  it("is on for a new deal unless the brand says otherwise", async () => {
    const res = await create();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.deal.disclosure).toEqual({ required: true, reason: null });
    expect(dealResponse.safeParse(res.body).success).toBe(true);
    const explicit = await create({ disclosure: { required: true } });
    expect(explicit.body.deal.disclosure).toEqual({ required: true, reason: null });
  });

  it("is turned off only with a reason, which the deal then shows", async () => {
    expectInvalid(
      await create({ disclosure: { required: false } }),
      ["disclosure", "reason"],
      /is required to turn disclosure off/,
    );
    expectInvalid(
      await create({ disclosure: { required: false, reason: "   no   " } }),
      ["disclosure", "reason"],
      /at least 10 characters/,
    );
    expectInvalid(
      await create({ disclosure: { required: false, reason: "x".repeat(501) } }),
      ["disclosure", "reason"],
      /at most 500/,
    );
    expectInvalid(
      await create({ disclosure: { required: true, reason: REASON } }),
      ["disclosure", "reason"],
      /only for turning disclosure off/,
    );
    expectInvalid(
      await create({ disclosure: { required: "no" } }),
      ["disclosure", "required"],
      /true or false/,
    );
    expectInvalid(await create({ disclosure: false }), ["disclosure"], /.+/);

    const off = await create({ disclosure: { required: false, reason: `  ${REASON}  ` } });
    expect(off.status, JSON.stringify(off.body)).toBe(201);
    expect(off.body.deal.disclosure).toEqual({ required: false, reason: REASON });
    const shown = await call(dealRoute.GET, {
      params: { id: off.body.deal.id },
      token: brand.token,
    });
    expect(shown.body.deal.disclosure).toEqual({ required: false, reason: REASON });
    expect(dealDetailResponse.safeParse(shown.body).success).toBe(true);
  });

  it("changes by an edit of the terms: termsVersion goes up and one event names it", async () => {
    const created = await create();
    const id = created.body.deal.id as string;
    const off = await patch(id, { disclosure: { required: false, reason: REASON } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.deal).toMatchObject({
      disclosure: { required: false, reason: REASON },
      termsVersion: created.body.deal.termsVersion + 1,
    });
    // The same again changes nothing.
    const same = await patch(id, { disclosure: { required: false, reason: REASON } });
    expect(same.body.deal.termsVersion).toBe(off.body.deal.termsVersion);
    expectInvalid(
      await patch(id, { disclosure: { required: false } }),
      ["disclosure", "reason"],
      /is required/,
    );
    // Back on: the reason goes with it.
    const on = await patch(id, { disclosure: { required: true } });
    expect(on.body.deal.disclosure).toEqual({ required: true, reason: null });

    const db = await getDb();
    const events = await db
      .select()
      .from(dealEvents)
      .where(and(eq(dealEvents.dealId, id), eq(dealEvents.type, "edited")));
    expect(events.map((e) => e.data)).toEqual([
      { fields: ["disclosure"] },
      { fields: ["disclosure"] },
    ]);
    const [row] = await db.select().from(deals).where(eq(deals.id, id));
    expect(row).toMatchObject({ disclosureRequired: true, disclosureOffReason: null });
  });

  it("is part of the terms a creator takes: a taken deal's rule cannot change", async () => {
    const created = await create();
    const id = created.body.deal.id as string;
    await fundDeal(brand, id);
    const taken = await call(acceptRoute.POST, { params: { id }, token: creator.token });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.deal.disclosure).toEqual({ required: true, reason: null });
    const edit = await patch(id, { disclosure: { required: false, reason: REASON } });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe("deal_not_editable");
  });

  it("is never off without a reason in the database either", async () => {
    const created = await create();
    const db = await getDb();
    await expect(
      db
        .update(deals)
        .set({ disclosureRequired: false, disclosureOffReason: null })
        .where(eq(deals.id, created.body.deal.id)),
    ).rejects.toThrow();
    const [row] = await db.select().from(deals).where(eq(deals.id, created.body.deal.id));
    expect(row?.disclosureRequired).toBe(true);
  });
});
