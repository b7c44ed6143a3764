import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowHeader, METHOD_NOT_ALLOWED, ROUTE_METHODS, type RouteMethod } from "@/lib/http";
import { routeFiles } from "../helpers/api-routes";

// Every API route answers a method it does not implement with 405 method_not_allowed in
// the contract's envelope and an `Allow` header, and OPTIONS with 204 and the same
// `Allow` — never Next's bare 405. Walks app/api/**/route.ts, so a new route is covered
// the moment it exists (and fails here until it exports the rest via methodNotAllowed).

const apiDir = path.resolve(import.meta.dirname, "../../app/api");

type Handler = (req: Request, ctx?: unknown) => Promise<Response> | Response;
type RouteModule = Partial<Record<RouteMethod | "OPTIONS", Handler>>;

const isRefusal = (h: unknown) =>
  typeof h === "function" && (h as unknown as Record<symbol, unknown>)[METHOD_NOT_ALLOWED] === true;

const files = routeFiles().sort();

describe("405 on every API route", () => {
  it("finds the routes", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files.map((f) => [path.relative(apiDir, f), f]))("%s", async (_name, file) => {
    const mod = (await import(file)) as RouteModule;
    const implemented = ROUTE_METHODS.filter(
      (m) => typeof mod[m] === "function" && !isRefusal(mod[m]),
    );
    expect(implemented.length).toBeGreaterThan(0);
    const allow = allowHeader(implemented);
    const url = `http://localhost/api/${path.relative(apiDir, path.dirname(file))}`;

    for (const method of ROUTE_METHODS) {
      if (implemented.includes(method)) continue;
      if (method === "HEAD" && implemented.includes("GET")) {
        expect(mod.HEAD, "HEAD is Next's own (it runs GET)").toBeUndefined();
        continue;
      }
      const handler = mod[method];
      expect(isRefusal(handler), `${method} must be exported via methodNotAllowed`).toBe(true);
      const res = await (handler as Handler)(new Request(url, { method }));
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      if (method === "HEAD") continue; // no body on HEAD
      const body = await res.json();
      expect(body).toEqual({
        error: {
          code: "method_not_allowed",
          message: expect.stringContaining(`${method} is not allowed`),
          details: { allowed: allow.split(", ") },
          requestId: res.headers.get("request-id"),
        },
      });
    }

    // Exporting the 405s would make Next's automatic OPTIONS list them: ours lists the truth.
    expect(typeof mod.OPTIONS).toBe("function");
    const options = await (mod.OPTIONS as Handler)(new Request(url, { method: "OPTIONS" }));
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe(allow);
  });
});

describe("allowHeader", () => {
  it("adds HEAD for GET and always OPTIONS, sorted", () => {
    expect(allowHeader(["GET"])).toBe("GET, HEAD, OPTIONS");
    expect(allowHeader(["POST"])).toBe("OPTIONS, POST");
    expect(allowHeader(["POST", "DELETE"])).toBe("DELETE, OPTIONS, POST");
  });
});
