import type { NextConfig } from "next";
import { parseEnv } from "./lib/env";
import { browserRpcOrigins, securityHeaders } from "./lib/security-headers";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "solc"],
  poweredByHeader: false,
  typedRoutes: false,
  // Evaluated when the app is built (next build) or started in dev (next dev).
  async headers() {
    const headers = securityHeaders({
      dev: process.env.NODE_ENV === "development",
      rpcOrigins: browserRpcOrigins(parseEnv(process.env)),
    });
    return [{ source: "/:path*", headers }];
  },
};

export default nextConfig;
