import { beforeAll, describe, expect, it } from "vitest";
import { GET as dealGET } from "@/app/api/deals/[id]/route";
import { POST as dealsPOST } from "@/app/api/deals/route";
import { PATCH as keyPATCH } from "@/app/api/keys/[id]/route";
import { POST as keysPOST } from "@/app/api/keys/route";
import { API_VERSIONS, bodyInVersion, CURRENT_API_VERSION } from "@/lib/api/versions";
import { signIn, type TestSession } from "../helpers/auth";
import { call } from "../helpers/http";

// Dated API versions (issue 26): a key is pinned to the current version when it is made
// (or to the one it names), a request may choose one with Milestone-Version, and an older
// version's answer is the current one passed through the version transforms: in
// 2026-06-01 no object carries `metadata`.

const OLD = "2026-06-01";
let brand: TestSession;
let dealId: string;

async function newKey(body: Record<string, unknown> = {}) {
  const res = await call(keysPOST, {
    cookie: brand.cookie,
    body: { name: "versions", scopes: ["read", "write"], ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { key: string; apiKey: { id: string; apiVersion: string } };
}

beforeAll(async () => {
  brand = await signIn({ profileType: "organization" });
  const res = await call(dealsPOST, {
    token: brand.token,
    body: {
      title: "Versioned deal",
      metadata: { order_id: "A-1" },
      milestones: [{ title: "Post", amount: 5 }],
    },
  });
  expect(res.status).toBe(201);
  dealId = res.body.deal.id;
}, 60_000);

const getDeal = (token: string, headers: Record<string, string> = {}) =>
  call(dealGET, { token, headers, params: { id: dealId } });

describe("API versions", () => {
  it("lists the current version first, each dated", () => {
    expect(CURRENT_API_VERSION).toBe("2026-11-24");
    for (const v of API_VERSIONS) expect(v.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(API_VERSIONS.map((v) => v.date)).toEqual(
      [...API_VERSIONS.map((v) => v.date)].sort().reverse(),
    );
  });

  it("pins a new key to the current version and answers in it", async () => {
    const { key, apiKey } = await newKey();
    expect(apiKey.apiVersion).toBe(CURRENT_API_VERSION);
    const res = await getDeal(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("milestone-version")).toBe(CURRENT_API_VERSION);
    expect(res.body.deal.metadata).toEqual({ order_id: "A-1" });
    expect(res.body.deal.milestones[0].metadata).toEqual({});
  });

  it("serves an older version's shape through the transform, by header or by the key's pin", async () => {
    const { key } = await newKey();
    const asked = await getDeal(key, { "milestone-version": OLD });
    expect(asked.status).toBe(200);
    expect(asked.headers.get("milestone-version")).toBe(OLD);
    expect(asked.body.deal).not.toHaveProperty("metadata");
    expect(asked.body.deal.milestones[0]).not.toHaveProperty("metadata");
    // Everything else is as the current version has it.
    const current = await getDeal(key);
    const { metadata: _m, milestones, ...rest } = current.body.deal;
    expect(asked.body.deal).toEqual({
      ...rest,
      milestones: milestones.map(({ metadata: _x, ...m }: { metadata: unknown }) => m),
    });

    const pinned = await newKey({ apiVersion: OLD });
    expect(pinned.apiKey.apiVersion).toBe(OLD);
    const byPin = await getDeal(pinned.key);
    expect(byPin.headers.get("milestone-version")).toBe(OLD);
    expect(byPin.body.deal).not.toHaveProperty("metadata");
    // The header wins over the pin.
    const upgraded = await getDeal(pinned.key, { "milestone-version": CURRENT_API_VERSION });
    expect(upgraded.body.deal.metadata).toEqual({ order_id: "A-1" });

    // Re-pinning the key (a session's PATCH) moves its default.
    const repin = await call(keyPATCH, {
      cookie: brand.cookie,
      method: "PATCH",
      params: { id: pinned.apiKey.id },
      body: { apiVersion: CURRENT_API_VERSION },
    });
    expect(repin.status).toBe(200);
    expect(repin.body.apiKey.apiVersion).toBe(CURRENT_API_VERSION);
    expect((await getDeal(pinned.key)).body.deal.metadata).toEqual({ order_id: "A-1" });
  });

  it("answers a session in the current version unless it asks", async () => {
    expect((await getDeal(brand.token)).headers.get("milestone-version")).toBe(CURRENT_API_VERSION);
    const old = await getDeal(brand.token, { "milestone-version": OLD });
    expect(old.body.deal).not.toHaveProperty("metadata");
  });

  it("refuses an unknown version with 400 before doing anything", async () => {
    const res = await call(dealsPOST, {
      token: brand.token,
      headers: { "milestone-version": "2020-01-01" },
      body: { title: "Never made", milestones: [{ title: "Post", amount: 1 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain("2026-11-24");
  });

  it("transforms only resources (objects with an id), not data that merely has the key", () => {
    const body = { deal: { id: "d", metadata: { a: "b" } }, schema: { metadata: { type: "x" } } };
    expect(bodyInVersion(body, OLD)).toEqual({ deal: { id: "d" }, schema: body.schema });
    expect(bodyInVersion(body, CURRENT_API_VERSION)).toBe(body);
  });
});
