import type { NextConfig } from "next";
import { PHASE_PRODUCTION_BUILD } from "next/constants";
import { assertProductionReady, isEmbedded, parseEnv } from "./lib/env";
import { browserRpcOrigins, browserUploadOrigins, securityHeaders } from "./lib/security-headers";

const env = parseEnv(process.env);

export const nextConfig: NextConfig = {
  // NEXT_DIST_DIR: a build of its own beside .next (the multi-instance test builds there).
  distDir: env.NEXT_DIST_DIR,
  typescript: { ignoreBuildErrors: env.BUILD_TYPECHECK === false },
  // `next dev` answers requests for its dev assets only from these hosts besides localhost:
  // opening the dev server at http://127.0.0.1:3000 (or APP_URL's host) works too.
  allowedDevOrigins: [...new Set(["127.0.0.1", "localhost", appHost(env.APP_URL)])].filter(
    (h): h is string => Boolean(h),
  ),
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
  // Evaluated when the app is built (next build) or started in dev (next dev).
  async headers() {
    const headers = securityHeaders({
      dev: process.env.NODE_ENV === "development",
      rpcOrigins: browserRpcOrigins(env),
      uploadOrigins: browserUploadOrigins(env),
    });
    return [{ source: "/:path*", headers }];
  },
};

function appHost(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * A build for a deployment (not the embedded setup: a DATABASE_URL or a real chain) fails at
 * once, naming each missing or malformed production setting, instead of deploying something
 * that `next start` (instrumentation.ts) would refuse. Embedded builds are checked at start.
 */
export default function config(phase: string): NextConfig {
  if (phase === PHASE_PRODUCTION_BUILD && !isEmbedded(env))
    assertProductionReady({ ...env, NODE_ENV: "production" });
  return nextConfig;
}
