import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as openapiRoute from "@/app/api/openapi.json/route";
import { API_VERSIONS, VERSION_HEADER } from "@/lib/api/versions";
import { apiKeyPattern } from "@/lib/auth/api-keys";
import { endpoints } from "@/lib/openapi";
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from "@/scripts/openapi-types";
import { expectRealErrorCodes, routesByPath } from "../helpers/api-routes";
import { call } from "../helpers/http";

type OperationJson = {
  parameters?: { in: string; name: string; schema?: { enum?: string[] } }[];
  responses: Record<string, { description?: string }>;
};

// The reference must describe routes that exist, with the methods they export.
describe("API reference", () => {
  it("lists only real routes and methods", async () => {
    const routes = routesByPath();
    for (const e of endpoints) {
      const file = routes.get(e.path);
      expect(file, `${e.method} ${e.path}: no route file`).toBeDefined();
      const mod = await import(file as string);
      expect(typeof mod[e.method], `${e.method} ${e.path}`).toBe("function");
    }
  });

  it("gives every operation a unique, stable operationId and a security declaration", async () => {
    const res = await call(openapiRoute.GET);
    const ids: string[] = [];
    for (const [path, item] of Object.entries(res.body.paths as Record<string, object>))
      for (const [method, op] of Object.entries(item as Record<string, Record<string, unknown>>)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z]+[A-Za-z0-9]*$/);
        expect(Array.isArray(op.security), `${method} ${path}: security`).toBe(true);
        ids.push(op.operationId as string);
      }
    expect(new Set(ids).size).toBe(ids.length);
    expect(res.body.paths["/api/deals/{id}/events"].get.operationId).toBe("getDealsByIdEvents");
    expect(res.body.paths["/api/health"].get.security).toEqual([]);
  });

  it("the typed client's generated types are those of the current reference", async () => {
    const res = await call(openapiRoute.GET);
    const current = await renderOpenApiTypes(res.body);
    expect(
      readFileSync(OPENAPI_TYPES_FILE, "utf8") === current,
      `${OPENAPI_TYPES_FILE} is out of date: run npm run openapi -- --types`,
    ).toBe(true);
  });

  it("documents the Milestone-Version header on every operation, and the 400 an unknown one gets", async () => {
    const res = await call(openapiRoute.GET);
    const versions = API_VERSIONS.map((v) => v.date);
    for (const [path, item] of Object.entries(res.body.paths as Record<string, object>))
      for (const [method, op] of Object.entries(item as Record<string, OperationJson>)) {
        const header = op.parameters?.find((p) => p.in === "header" && p.name === VERSION_HEADER);
        expect(header?.schema?.enum, `${method} ${path}`).toEqual(versions);
        // invalid_request under 400 (an endpoint's own 400 invalid_request stands for it).
        expect(op.responses["400"]?.description, `${method} ${path}`).toContain("invalid_request");
      }
    // What the reference says is what route() does, on a public endpoint too.
    const refused = await call(openapiRoute.GET, { headers: { [VERSION_HEADER]: "2001-01-01" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
  });

  it("serves an OpenAPI document with the request schemas", async () => {
    const res = await call(openapiRoute.GET);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const settle = res.body.paths["/api/settle"].post;
    // One milestone or many (bulk, up to 100); "relayer": the original interface's name for
    // relay, accepted as an alias.
    const [single, bulk] = settle.requestBody.content["application/json"].schema.anyOf;
    expect(single.properties.via.enum).toEqual(["direct", "relay", "relayer"]);
    expect(bulk.properties.milestoneIds).toMatchObject({ minItems: 1, maxItems: 100 });
    expect(bulk.required).toEqual(["milestoneIds"]);
    expect(Object.keys(res.body.paths)).toContain("/api/deals/{id}/accept");
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/deals/{id}/funding",
        "/api/deals/{id}/cancel",
        "/api/deals/{id}/refund",
        "/api/deals/{id}/events",
      ]),
    );
  });

  it("is generated from zod schemas: responses where declared, every listed error by status", async () => {
    const res = await call(openapiRoute.GET);
    const create = res.body.paths["/api/keys"].post;
    const created = create.responses["201"].content["application/json"].schema;
    expect(created.properties.key.pattern).toBe(apiKeyPattern.source);
    expect(created.properties.apiKey.$ref).toBe("#/components/schemas/ApiKey");
    expect(res.body.components.schemas.ApiKey.properties.scopes.items.enum).toEqual([
      "read",
      "write",
      "settle",
      "webhooks",
    ]);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(["201", "400", "401", "403"]),
    );
    expect(create.responses["403"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Error",
    );
    const revoke = res.body.paths["/api/keys/{id}"].delete;
    expect(revoke.parameters).toEqual([
      expect.objectContaining({ name: "id", in: "path", required: true }),
      expect.objectContaining({ name: "Milestone-Version", in: "header" }),
    ]);
    expect(res.body.components.securitySchemes.bearer.description).toContain("insufficient_scope");
  });

  it("documents the main endpoints' responses from lib/api/responses.ts", async () => {
    const res = await call(openapiRoute.GET);
    const json = (path: string, method: string, status: string) =>
      res.body.paths[path][method].responses[status].content["application/json"].schema;
    expect(json("/api/deals", "get", "200").properties.deals.items.$ref).toBe(
      "#/components/schemas/Deal",
    );
    expect(json("/api/deals", "post", "201").properties.deal.$ref).toBe(
      "#/components/schemas/Deal",
    );
    expect(json("/api/milestones/{id}/appeal", "post", "201").properties.appeal.$ref).toBe(
      "#/components/schemas/Appeal",
    );
    // paid, rejected, and submitted (answered 202: the chain did not confirm within the
    // budget); or the bulk form's results.
    const [one, many] = json("/api/settle", "post", "200").anyOf;
    expect(one.oneOf).toHaveLength(3);
    expect(many.properties.results.type).toBe("array");
    expect(json("/api/deals/{id}/events", "get", "200").properties.events.items.$ref).toBe(
      "#/components/schemas/DealEvent",
    );
    const schemas = res.body.components.schemas;
    expect(schemas.Deal.properties.status.enum).toContain("unfunded");
    expect(schemas.Settlement.required).toEqual(expect.arrayContaining(["amount", "refund"]));
  });

  it("lists only real error codes, each under its own status", () => {
    for (const e of endpoints) expectRealErrorCodes(e, e.errors);
  });
});
