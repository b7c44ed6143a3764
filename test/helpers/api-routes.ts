import { readdirSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { AppError, type ErrorCode } from "@/lib/errors";
import { METHOD_NOT_ALLOWED, ROUTE_METHODS, type RouteAccess, routeAccess } from "@/lib/http";
import type { Endpoint } from "@/lib/openapi";

// The API's route files as the reference (lib/openapi.ts) names them, for the tests that hold
// the two against each other: app/api/deals/[id]/route.ts is the path /api/deals/{id}.

const appDir = path.resolve(import.meta.dirname, "../../app");

/** Every route.ts below `dir` (app/api), as absolute paths. */
export function routeFiles(dir = path.join(appDir, "api")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return routeFiles(full);
    return d.name === "route.ts" ? [full] : [];
  });
}

/** app/api/deals/[id]/route.ts → /api/deals/{id} */
export const apiPath = (file: string) =>
  `/${path
    .relative(appDir, path.dirname(file))
    .split(path.sep)
    .map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))
    .join("/")}`;

/** Every route file by its reference path: `/api/deals/{id}` → its app/api/…/route.ts. */
export const routesByPath = () => new Map(routeFiles().map((file) => [apiPath(file), file]));

export type RouteHandler = (
  req: Request,
  ctx: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response;

export type Operation = {
  method: Endpoint["method"];
  /** The reference path: /api/deals/{id} */
  path: string;
  file: string;
  handler: RouteHandler;
  /** What its route({ auth, scope }) declared; undefined: not made by route(). */
  access: RouteAccess | undefined;
};

/** Every implemented method of every app/api/**\/route.ts (HEAD is Next's own, from GET). */
export async function operations(): Promise<Operation[]> {
  const out: Operation[] = [];
  for (const file of routeFiles().sort()) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of ROUTE_METHODS) {
      if (method === "HEAD") continue;
      const handler = mod[method] as { [METHOD_NOT_ALLOWED]?: boolean } | undefined;
      if (typeof handler === "function" && !handler[METHOD_NOT_ALLOWED])
        out.push({
          method,
          path: apiPath(file),
          file,
          handler: handler as unknown as RouteHandler,
          access: routeAccess(handler),
        });
    }
  }
  return out;
}

/**
 * Each error line `texts` lists for `e` ("409 invalid_state (taken) | wallet_required")
 * names real codes, each under the status the code answers with.
 */
export function expectRealErrorCodes(e: Endpoint, texts: string[]): void {
  for (const text of texts) {
    // the codes without their notes
    const [, status, codes] = /^(\d{3}) (.+)$/.exec(text.replace(/\([^)]*\)/g, "")) ?? [];
    expect(status, `${e.method} ${e.path}: "${text}"`).toBeDefined();
    for (const code of (codes ?? "").split("|").map((c) => c.trim()))
      expect(
        String(new AppError(code as ErrorCode, "").status),
        `${e.method} ${e.path}: ${code}`,
      ).toBe(status);
  }
}
