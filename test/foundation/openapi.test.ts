import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as openapiRoute from "@/app/api/openapi.json/route";
import { endpoints } from "@/lib/openapi";
import { call } from "../helpers/http";

// The reference must describe routes that exist, with the methods they export.
describe("API reference", () => {
  it("lists only real routes and methods", async () => {
    for (const e of endpoints) {
      const dir = e.path
        .replace(/^\//, "")
        .replace(/\{(\w+)\}/g, (_m, name) => `[${name === "wallet" ? "wallet" : "id"}]`);
      const file = path.resolve("app", dir, "route.ts");
      expect(existsSync(file), `${e.method} ${e.path} → ${file}`).toBe(true);
      const mod = await import(file);
      expect(typeof mod[e.method], `${e.method} ${e.path}`).toBe("function");
    }
  });

  it("serves an OpenAPI document with the request schemas", async () => {
    const res = await call(openapiRoute.GET);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const settle = res.body.paths["/api/settle"].post;
    // "relayer": the original interface's name for relay, accepted as an alias.
    expect(settle.requestBody.content["application/json"].schema.properties.via.enum).toEqual([
      "direct",
      "relay",
      "relayer",
    ]);
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
});
