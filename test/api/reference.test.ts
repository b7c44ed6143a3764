import { describe, expect, it } from "vitest";
import { z } from "zod";
import { METHOD_NOT_ALLOWED, ROUTE_METHODS } from "@/lib/http";
import { type Endpoint, endpoints, errorsOf } from "@/lib/openapi";
import { apiPath, expectRealErrorCodes, routeFiles } from "../helpers/api-routes";

// The reference (lib/openapi.ts) against the routes that exist: every operation of every
// app/api/**/route.ts is documented with a success response schema, and every list takes
// `limit` (default 20, max 100) and `cursor` and answers `nextCursor`. A route or method
// added without its reference fails here.

/** Routes that are not part of the API: the dev identity provider and test clock (404 elsewhere). */
const UNDOCUMENTED = [/^\/api\/dev\//];

async function operations(): Promise<Array<{ method: string; path: string }>> {
  const out: Array<{ method: string; path: string }> = [];
  for (const file of routeFiles()) {
    const p = apiPath(file);
    if (UNDOCUMENTED.some((r) => r.test(p))) continue;
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of ROUTE_METHODS) {
      if (method === "HEAD") continue; // Next's own, from GET
      const handler = mod[method] as { [METHOD_NOT_ALLOWED]?: boolean } | undefined;
      if (typeof handler === "function" && !handler[METHOD_NOT_ALLOWED])
        out.push({ method, path: p });
    }
  }
  return out;
}

const find = (method: string, p: string) =>
  endpoints.find((e) => e.method === method && e.path === p);

describe("the reference covers every route", () => {
  it("every operation of app/api/**/route.ts is documented, with a success response schema", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(40);
    const missing = ops.filter((o) => !find(o.method, o.path)).map((o) => `${o.method} ${o.path}`);
    expect(missing, "operations missing from lib/openapi.ts").toEqual([]);
    for (const o of ops) {
      const e = find(o.method, o.path) as Endpoint;
      // null only for an answer without a body (204)
      if (e.responseSchema === null) expect(e.response, `${o.method} ${o.path}`).toMatch(/^204\b/);
      else expect(e.responseSchema, `${o.method} ${o.path}`).toBeInstanceOf(z.ZodType);
    }
    // and nothing documented that does not exist
    const real = new Set(ops.map((o) => `${o.method} ${o.path}`));
    expect(endpoints.map((e) => `${e.method} ${e.path}`).filter((k) => !real.has(k))).toEqual([]);
  });

  it("every error an endpoint lists, its own or of its kind, is a real code under its status", () => {
    for (const e of endpoints) expectRealErrorCodes(e, errorsOf(e));
  });

  it("authenticated endpoints list the credential errors; session-only ones forbidden, others the scope", () => {
    for (const e of endpoints.filter((x) => x.auth === true)) {
      const errors = errorsOf(e).join("\n");
      expect(errors, `${e.method} ${e.path}`).toMatch(/^401 .*unauthenticated/m);
      if (e.sessionOnly) expect(errors).toMatch(/^403 forbidden/m);
      else {
        expect(errors, `${e.method} ${e.path}`).toMatch(/^403 insufficient_scope/m);
        expect(errors, `${e.method} ${e.path}`).toMatch(/^429 rate_limited/m);
      }
      if (e.body) expect(errors, `${e.method} ${e.path}`).toMatch(/^413 payload_too_large/m);
    }
  });
});

/** The top-level array fields of a response schema (a list endpoint answers one). */
function listFields(schema: z.ZodType | null): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape)
    .filter(([, v]) => v instanceof z.ZodArray)
    .map(([k]) => k);
}

/** Lists with a small fixed bound, not paginated: a user's handles (one per platform: five). */
const BOUNDED_LISTS = new Set(["GET /api/profile/handles"]);

describe("every list is paginated", () => {
  const lists = endpoints.filter((e) => e.method === "GET" && listFields(e.responseSchema).length);

  it("finds the lists", () => {
    expect(lists.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        "/api/deals",
        "/api/deals/{id}/events",
        "/api/notifications",
        "/api/webhooks",
        "/api/webhooks/{id}/deliveries",
        "/api/keys",
        "/api/social/posts",
      ]),
    );
  });

  it.each(lists.filter((e) => !BOUNDED_LISTS.has(`${e.method} ${e.path}`)).map((e) => [e.path, e]))(
    "%s takes limit (default 20, 1..100) and cursor, and answers nextCursor",
    (_p, e) => {
      const shape = (e.responseSchema as z.ZodObject).shape;
      expect(Object.keys(shape)).toContain("nextCursor");
      expect(shape.nextCursor?.safeParse(null).success).toBe(true);
      const query = e.query as z.ZodType;
      expect(query, "documents its query").toBeDefined();
      expect(query.parse({})).toMatchObject({ limit: 20 });
      expect(query.parse({ limit: "100", cursor: "abc" })).toMatchObject({
        limit: 100,
        cursor: "abc",
      });
      expect(query.safeParse({ limit: "101" }).success).toBe(false);
      expect(query.safeParse({ limit: "0" }).success).toBe(false);
    },
  );
});
