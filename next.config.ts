import path from "node:path";
import { pathToFileURL } from "node:url";
import type { NextConfig } from "next";
import { PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from "next/constants";
import type * as EnvModule from "./lib/env";
import { browserRpcOrigins, browserUploadOrigins, securityHeaders } from "./lib/security-headers";

// Next loads this file on every `next start` before the first request is answered, compiling
// it and everything it imports with SWC as it goes (zod alone, through lib/env.ts, is ~1 MB of
// JavaScript: 0.4-0.6 s of a cold start). So it imports nothing that loads zod: what `next
// start` needs is below; the configuration's checks and the headers, which only `next build`
// and `next dev` use, load lib/env.ts when asked for (configFor).

/** What every phase uses, `next start` included. */
const runtimeConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "solc"],
  poweredByHeader: false,
  // `npm run dev` calls the cron route every 15 s (scripts/dev.ts): keep it out of the log.
  logging: { incomingRequests: { ignore: [/\/api\/cron\/reconcile/] } },
  typedRoutes: false,
  // `next start` otherwise loads every route's server code as it starts (Next's default), work
  // its first request waits behind: seconds here, paid by every cold serverless instance. A
  // route's code is loaded when it is first asked for instead (bench/cold-start.ts).
  experimental: { preloadEntriesOnStart: false },
};

/** The whole configuration, for `next build` and `next dev`, from lib/env.ts. */
export function configFor(envModule: typeof EnvModule): NextConfig {
  const env = envModule.parseEnv(process.env);
  return {
    ...runtimeConfig,
    // NEXT_DIST_DIR: a build of its own beside .next (the multi-instance test builds there).
    distDir: env.NEXT_DIST_DIR,
    typescript: { ignoreBuildErrors: env.BUILD_TYPECHECK === false },
    // `next dev` answers requests for its dev assets only from these hosts besides localhost:
    // opening the dev server at http://127.0.0.1:3000 (or APP_URL's host) works too.
    allowedDevOrigins: [...new Set(["127.0.0.1", "localhost", appHost(env.APP_URL)])].filter(
      (h): h is string => Boolean(h),
    ),
    // Evaluated when the app is built (next build) or started in dev (next dev); `next start`
    // serves the headers the build recorded.
    async headers() {
      const headers = securityHeaders({
        dev: env.NODE_ENV === "development",
        rpcOrigins: browserRpcOrigins(env),
        uploadOrigins: browserUploadOrigins(env),
      });
      return [{ source: "/:path*", headers }];
    },
  };
}

function appHost(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * `next start`: the runtime options and the build's directory (NEXT_DIST_DIR, which the build
 * was checked with; lib/env.ts's default). Else the whole configuration, lib/env.ts loaded
 * through tsx (this file's own loader is gone by the time Next calls this function); a build
 * for a deployment (not the embedded setup: a DATABASE_URL or a real chain) fails at once,
 * naming each missing or malformed production setting, instead of deploying something that
 * `next start` (instrumentation.ts) would refuse. Embedded builds are checked at start.
 */
export default async function config(phase: string): Promise<NextConfig> {
  // The one read of the environment outside lib/env.ts: loading it is what this avoids.
  if (phase === PHASE_PRODUCTION_SERVER)
    return { ...runtimeConfig, distDir: process.env.NEXT_DIST_DIR || ".next" };
  const { tsImport } = await import("tsx/esm/api");
  const envModule: typeof EnvModule = await tsImport(
    pathToFileURL(path.resolve("lib/env.ts")).href,
    pathToFileURL(path.resolve("next.config.ts")).href,
  );
  const env = envModule.parseEnv(process.env);
  if (phase === PHASE_PRODUCTION_BUILD && !envModule.isEmbedded(env))
    envModule.assertProductionReady({ ...env, NODE_ENV: "production" });
  return configFor(envModule);
}
