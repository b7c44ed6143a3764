import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { reference, routeModules } from "@/app/api/reference";
import { routeSchemas } from "@/lib/http";
import {
  type Endpoint,
  endpoints,
  errorsOf,
  openApiDocument,
  responseSummary,
} from "@/lib/openapi";
import {
  operations as allOperations,
  apiPath,
  expectRealErrorCodes,
  routeFiles,
} from "../helpers/api-routes";

// The reference (lib/openapi.ts) against the routes that exist: every operation of every
// app/api/**/route.ts is documented with a success response schema, and every list takes
// `limit` (default 20, max 100) and `cursor` and answers `nextCursor`. A route or method
// added without its reference fails here.

/** Routes that are not part of the API: the dev identity provider and test clock (404 elsewhere). */
const UNDOCUMENTED = [/^\/api\/dev\//];

async function operations() {
  return (await allOperations()).filter((o) => !UNDOCUMENTED.some((r) => r.test(o.path)));
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
      if (e.responseSchema === null) expect(e.status, `${o.method} ${o.path}`).toBe(204);
      else expect(e.responseSchema, `${o.method} ${o.path}`).toBeInstanceOf(z.ZodType);
    }
    // and nothing documented that does not exist
    const real = new Set(ops.map((o) => `${o.method} ${o.path}`));
    expect(endpoints.map((e) => `${e.method} ${e.path}`).filter((k) => !real.has(k))).toEqual([]);
  });

  it("every error an endpoint lists, its own or of its kind, is a real code under its status", () => {
    for (const e of reference) expectRealErrorCodes(e, errorsOf(e));
  });

  it("authenticated endpoints list the credential errors; session-only ones forbidden, others the scope", () => {
    for (const e of reference.filter((x) => x.auth === true)) {
      const errors = errorsOf(e).join("\n");
      expect(errors, `${e.method} ${e.path}`).toMatch(/^401 .*unauthenticated/m);
      if (e.sessionOnly) expect(errors).toMatch(/^403 forbidden/m);
      else {
        expect(errors, `${e.method} ${e.path}`).toContain(
          `403 insufficient_scope (an API key without the ${e.scope} scope)`,
        );
        expect(errors, `${e.method} ${e.path}`).toMatch(/^429 rate_limited/m);
      }
      if (e.body) expect(errors, `${e.method} ${e.path}`).toMatch(/^413 payload_too_large/m);
    }
  });
});

describe("the reference's scopes are the routes' own declarations", () => {
  it("app/api/reference.ts gathers every documented route module", async () => {
    const documented = routeFiles()
      .map(apiPath)
      .filter((p) => !UNDOCUMENTED.some((r) => r.test(p)) && p !== "/api/openapi.json")
      .sort();
    expect(
      Object.keys(routeModules).sort(),
      "add the route module to app/api/reference.ts",
    ).toEqual(documented);
    for (const file of routeFiles()) {
      const p = apiPath(file);
      if (routeModules[p]) expect(routeModules[p], p).toBe(await import(file));
    }
  });

  it("each operation documents the scope its route({ scope }) declares, and its kind of auth", async () => {
    const ops = await operations();
    for (const o of ops) {
      const e = reference.find((x) => x.method === o.method && x.path === o.path) as Endpoint;
      const where = `${o.method} ${o.path}`;
      expect(e.scope, where).toBe(o.access?.auth === "api_key" ? o.access.scope : undefined);
      const kind = o.access?.auth;
      if (e.auth === true && !e.sessionOnly) expect(kind, where).toBe("api_key");
      else if (e.auth === false && !e.sessionOnly) expect(kind, where).toBe("public");
      else expect(kind, where).toBe("no_api_key"); // session only, or the cron secret
    }
    // the hand-written entries carry none: the scope has one source
    expect(endpoints.filter((e) => e.scope !== undefined)).toEqual([]);
  });

  it("the OpenAPI document names each operation's scope on its bearer requirement", () => {
    const doc = openApiDocument("http://localhost", reference) as unknown as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const scoped = reference.filter((e) => e.scope);
    expect(scoped.length).toBeGreaterThan(30);
    for (const e of scoped)
      expect(
        doc.paths[e.path]?.[e.method.toLowerCase()]?.security,
        `${e.method} ${e.path}`,
      ).toEqual([{ bearer: [e.scope] }, { cookie: [] }]);
    expect(doc.paths["/api/milestones/{id}/refund"]?.post?.security?.[0]).toEqual({
      bearer: ["settle"],
    });
  });
});

/** The top-level array fields of a response schema (a list endpoint answers one). */
function listFields(schema: z.ZodType | null): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape)
    .filter(([, v]) => v instanceof z.ZodArray)
    .map(([k]) => k);
}

/**
 * Lists with a small fixed bound, not paginated: a user's handles (one per platform: five);
 * the account's ways to sign in (one per method: a few);
 * the wallet overview (the signed-in and linked wallets, at most 10 funding wallets, the
 * latest 20 sends: the full record is the ledger's).
 */
const BOUNDED_LISTS = new Set([
  "GET /api/profile/handles",
  "GET /api/wallet",
  "GET /api/auth/identities",
]);

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

describe("one definition per request shape", () => {
  it("the reference shows the very zod schemas each route validates its body and query with", () => {
    const apart: string[] = [];
    let compared = 0;
    for (const e of endpoints) {
      const handler = routeModules[e.path]?.[e.method];
      const own = routeSchemas(handler);
      for (const part of ["body", "query"] as const) {
        const declared = e[part];
        if (!declared || !own?.[part]) continue; // multipart forms are read by the route itself
        const name = `${e.method} ${e.path} ${part}`;
        compared++;
        if (declared !== own[part]) apart.push(name);
      }
    }
    expect(apart).toEqual([]);
    expect(compared).toBeGreaterThan(30);
  });
});

describe("one definition per response shape", () => {
  const source = readFileSync(path.join(process.cwd(), "lib/openapi.ts"), "utf8");

  /** The names lib/openapi.ts imports, by module ("@/lib/deals/serialize" → [dealResponse, …]). */
  function importedNames(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const m of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"(@\/[^"]+)";/g)) {
      if (m[1]) continue;
      const names = (m[2] as string)
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n && !n.startsWith("type "));
      out.set(m[3] as string, names);
    }
    return out;
  }

  it("lib/openapi.ts writes no response shape: each endpoint names a schema it imports", () => {
    const declared = [...source.matchAll(/\bresponseSchema:\s*([^,\n]+),/g)].map(
      (m) => m[1] as string,
    );
    expect(declared.length).toBeGreaterThan(60);
    const imported = new Set([...importedNames().values()].flat());
    // a bare imported name (or null: 204), never z.object(…), .extend(…) or a local const
    expect(declared.filter((d) => d !== "null" && !imported.has(d))).toEqual([]);
    // and no zod schema is built in the file but the request's path and version header
    expect(
      source.match(/\bz\.(object|array|union|discriminatedUnion|string|literal|enum)\(/g),
    ).toEqual([
      "z.object(", // the Milestone-Version header
      "z.object(", // the path parameters
      "z.string(",
    ]);
  });

  it("every documented response schema is an export of the domain module that builds the answer", async () => {
    const exported = new Set<unknown>();
    for (const spec of importedNames().keys()) {
      if (spec === "@/lib/openapi") continue;
      for (const value of Object.values(await import(spec))) exported.add(value);
    }
    const own = endpoints
      .filter((e) => e.responseSchema !== null && !exported.has(e.responseSchema))
      .map((e) => `${e.method} ${e.path}`);
    expect(own, "response schemas made inside lib/openapi.ts").toEqual([]);
  });

  it("the reference's response description is read from the schema, not written beside it", () => {
    const doc = openApiDocument("http://localhost", reference) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const settle = doc.paths["/api/settle"]?.post?.responses["200"]?.description;
    expect(settle).toBe(
      '{ outcome: "paid", milestone, verdict, settlement } | { outcome: "rejected", milestone, verdict } | { outcome: "submitted", milestone, verdict, settlement, poll } | { results }',
    );
    expect(doc.paths["/api/deals"]?.post?.responses["201"]?.description).toBe("{ deal }");
    expect(
      responseSummary(
        endpoints.find((e) => e.path === "/api/deals" && e.method === "POST") as Endpoint,
      ),
    ).toBe("201 { deal }");
  });
});
