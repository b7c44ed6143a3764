import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as dealPATCH } from "@/app/api/deals/[id]/route";
import { GET as dealsGET, POST as dealsPOST } from "@/app/api/deals/route";
import { PATCH as keyPATCH } from "@/app/api/keys/[id]/route";
import { POST as keysPOST } from "@/app/api/keys/route";
import { PATCH as milestonePATCH } from "@/app/api/milestones/[id]/route";
import { PATCH as webhookPATCH } from "@/app/api/webhooks/[id]/route";
import { POST as webhooksPOST } from "@/app/api/webhooks/route";
import { resetEnvCache } from "@/lib/env";
import { signIn, type TestSession } from "../helpers/auth";
import { call } from "../helpers/http";

// `metadata` (issue 26): up to 20 string pairs, keys up to 40 characters, values up to 500,
// on deals, milestones, webhook endpoints and API keys; set on create, merged on update (""
// removes a key), returned, and the deal list finds deals by one exact pair.

let brand: TestSession;
let other: TestSession;

const savedHosts = process.env.FETCH_ALLOWED_HOSTS;
afterAll(() => {
  if (savedHosts === undefined) delete process.env.FETCH_ALLOWED_HOSTS;
  else process.env.FETCH_ALLOWED_HOSTS = savedHosts;
  resetEnvCache();
});

beforeAll(async () => {
  process.env.FETCH_ALLOWED_HOSTS = "127.0.0.1:9"; // a registrable webhook URL; nothing listens
  resetEnvCache();
  [brand, other] = await Promise.all([
    signIn({ profileType: "organization" }),
    signIn({ profileType: "organization" }),
  ]);
}, 60_000);

const pairs = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));

async function createDeal(who: TestSession, metadata?: unknown, milestoneMetadata?: unknown) {
  return call(dealsPOST, {
    token: who.token,
    body: {
      title: "Metadata deal",
      ...(metadata !== undefined ? { metadata } : {}),
      milestones: [
        {
          title: "Post",
          amount: 5,
          ...(milestoneMetadata !== undefined ? { metadata: milestoneMetadata } : {}),
        },
      ],
    },
  });
}

const listPaths = (res: { body: { error: { details: { path: string[] }[] } } }) =>
  res.body.error.details.map((d) => d.path.join("."));

describe("metadata limits", () => {
  it("takes 20 pairs of the longest allowed key and value", async () => {
    const key = "k".repeat(40);
    const res = await createDeal(brand, { ...pairs(19), [key]: "v".repeat(500) });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.deal.metadata)).toHaveLength(20);
    expect(res.body.deal.metadata[key]).toHaveLength(500);
  });

  it("refuses 21 pairs, a long key, a long value, a non-string value, an odd key", async () => {
    for (const [metadata, why] of [
      [pairs(21), "21 pairs"],
      [{ ["k".repeat(41)]: "v" }, "key of 41"],
      [{ k: "v".repeat(501) }, "value of 501"],
      [{ k: 5 }, "number"],
      [{ "a b": "v" }, "space in key"],
    ] as const) {
      const res = await createDeal(brand, metadata);
      expect(res.status, why).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(
        listPaths(res).some((p) => p.startsWith("metadata")),
        why,
      ).toBe(true);
    }
    const milestone = await createDeal(brand, undefined, pairs(21));
    expect(milestone.status).toBe(400);
    expect(listPaths(milestone)).toContain("milestones.0.metadata");
  });

  it('merges on update, removes a key sent with "", and refuses a merge past 20', async () => {
    const created = await createDeal(brand, pairs(18));
    const id = created.body.deal.id;
    const patch = (metadata: Record<string, string>) =>
      call(dealPATCH, { token: brand.token, method: "PATCH", params: { id }, body: { metadata } });

    const merged = await patch({ k0: "", extra: "x" });
    expect(merged.status).toBe(200);
    expect(merged.body.deal.metadata).not.toHaveProperty("k0");
    expect(merged.body.deal.metadata.extra).toBe("x");
    expect(Object.keys(merged.body.deal.metadata)).toHaveLength(18);
    // A metadata-only change is no edit of the terms.
    expect(merged.body.deal.termsVersion).toBe(created.body.deal.termsVersion);

    const tooMany = await patch({ a: "1", b: "2", c: "3" });
    expect(tooMany.status).toBe(400);
    expect(listPaths(tooMany)).toEqual(["metadata"]);
    const after = await patch({});
    expect(Object.keys(after.body.deal.metadata)).toHaveLength(18);

    // Someone else's deal: 404, nothing changed.
    const foreign = await call(dealPATCH, {
      token: other.token,
      method: "PATCH",
      params: { id },
      body: { metadata: { x: "y" } },
    });
    expect(foreign.status).toBe(404);
  });

  it("sets milestone metadata on create and with PATCH /api/milestones/:id", async () => {
    const created = await createDeal(brand, undefined, { sku: "S-1" });
    const milestone = created.body.deal.milestones[0];
    expect(milestone.metadata).toEqual({ sku: "S-1" });
    const res = await call(milestonePATCH, {
      token: brand.token,
      method: "PATCH",
      params: { id: milestone.id },
      body: { metadata: { sku: "", batch: "7" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.milestone.metadata).toEqual({ batch: "7" });
    const foreign = await call(milestonePATCH, {
      token: other.token,
      method: "PATCH",
      params: { id: milestone.id },
      body: { metadata: { x: "y" } },
    });
    expect(foreign.status).toBe(404);
  });

  it("is on webhook endpoints and API keys too", async () => {
    const hook = await call(webhooksPOST, {
      token: brand.token,
      body: { url: "http://127.0.0.1:9/hook", metadata: { env: "staging" } },
    });
    expect(hook.status).toBe(201);
    expect(hook.body.endpoint.metadata).toEqual({ env: "staging" });
    const changed = await call(webhookPATCH, {
      token: brand.token,
      method: "PATCH",
      params: { id: hook.body.endpoint.id },
      body: { metadata: { env: "prod", team: "growth" } },
    });
    expect(changed.body.endpoint.metadata).toEqual({ env: "prod", team: "growth" });
    const tooMany = await call(webhookPATCH, {
      token: brand.token,
      method: "PATCH",
      params: { id: hook.body.endpoint.id },
      body: { metadata: pairs(19) },
    });
    expect(tooMany.status).toBe(400);

    const key = await call(keysPOST, {
      cookie: brand.cookie,
      body: { name: "meta", scopes: ["read"], metadata: { owner: "ops" } },
    });
    expect(key.status).toBe(201);
    expect(key.body.apiKey.metadata).toEqual({ owner: "ops" });
    const renamed = await call(keyPATCH, {
      cookie: brand.cookie,
      method: "PATCH",
      params: { id: key.body.apiKey.id },
      body: { metadata: { owner: "", rotation: "q1" } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.apiKey.metadata).toEqual({ rotation: "q1" });
    expect(renamed.body.apiKey.name).toBe("meta");
  });
});

describe("deal list search by metadata", () => {
  it("finds exactly the deals holding the pair, only the caller's", async () => {
    const tag = `ord-${Date.now()}`;
    const a = await createDeal(brand, { order_id: tag, region: "eu" });
    const b = await createDeal(brand, { order_id: `${tag}-2` });
    await createDeal(brand, { other_key: tag });
    const foreign = await createDeal(other, { order_id: tag });
    expect([a.status, b.status, foreign.status]).toEqual([201, 201, 201]);

    const list = (token: string, q: string) =>
      call(dealsGET, { token, path: `/api/deals?metadata=${encodeURIComponent(q)}` });
    const found = await list(brand.token, `order_id:${tag}`);
    expect(found.status).toBe(200);
    expect(found.body.deals.map((d: { id: string }) => d.id)).toEqual([a.body.deal.id]);
    // Exact value: a prefix finds nothing; a value holding ':' is taken whole.
    expect((await list(brand.token, `order_id:${tag.slice(0, 5)}`)).body.deals).toEqual([]);
    expect((await list(brand.token, `region:eu:x`)).body.deals).toEqual([]);
    // The other brand finds its own deal only.
    const theirs = await list(other.token, `order_id:${tag}`);
    expect(theirs.body.deals.map((d: { id: string }) => d.id)).toEqual([foreign.body.deal.id]);
    // A filter that is no pair is the caller's mistake.
    expect((await list(brand.token, "no-colon")).status).toBe(400);
  });
});
