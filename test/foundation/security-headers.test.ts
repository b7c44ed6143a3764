import { describe, expect, it } from "vitest";
import * as envModule from "@/lib/env";
import {
  browserRpcOrigins,
  browserUploadOrigins,
  contentSecurityPolicy,
} from "@/lib/security-headers";
import { configFor } from "@/next.config";

// The headers next.config.ts puts on every page and API response. (That the app really
// passes its CSP is checked in a browser: the e2e journeys run under it.)

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("security headers (next.config.ts)", () => {
  it("are set on every path", async () => {
    const rules = (await configFor(envModule).headers?.()) ?? [];
    expect(rules).toHaveLength(1);
    const [rule] = rules;
    expect(rule?.source).toBe("/:path*");
    const headers = Object.fromEntries((rule?.headers ?? []).map((h) => [h.key, h.value]));
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    const csp = directives(headers["Content-Security-Policy"] ?? "");
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    // The tests' anvil is the local chain's RPC: the wallet code in the page may call it.
    expect(csp["connect-src"]).toContain(new URL(process.env.RPC_URL as string).origin);
  });

  it("production: no eval, no websockets; framing, plugins, <base> and foreign forms refused", () => {
    const csp = directives(
      contentSecurityPolicy({ dev: false, rpcOrigins: ["https://rpc.example"] }),
    );
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["script-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["connect-src"]).toEqual(["'self'", "https://rpc.example"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
    expect(csp["form-action"]).toEqual(["'self'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
  });

  it("`next dev`: eval for React's dev build and websockets for hot reload", () => {
    const csp = directives(contentSecurityPolicy({ dev: true, rpcOrigins: [] }));
    expect(csp["script-src"]).toContain("'unsafe-eval'");
    expect(csp["connect-src"]).toEqual(expect.arrayContaining(["ws:", "wss:"]));
  });

  it("connect-src names the uploads bucket the browser PUTs files to, and nothing without one", () => {
    expect(browserUploadOrigins(envModule.parseEnv({}))).toEqual([]);
    expect(browserUploadOrigins(envModule.parseEnv({ S3_BUCKET: "media" }))).toEqual([
      "https://media.s3.us-east-1.amazonaws.com",
    ]);
    expect(
      browserUploadOrigins(
        envModule.parseEnv({
          S3_BUCKET: "media",
          S3_ENDPOINT: "https://acc.r2.cloudflarestorage.com",
        }),
      ),
    ).toEqual(["https://media.acc.r2.cloudflarestorage.com"]);
    expect(
      browserUploadOrigins(
        envModule.parseEnv({
          S3_BUCKET: "media",
          S3_ENDPOINT: "http://127.0.0.1:9000/",
          S3_FORCE_PATH_STYLE: "1",
        }),
      ),
    ).toEqual(["http://127.0.0.1:9000"]);
    const csp = directives(
      contentSecurityPolicy({ dev: false, rpcOrigins: [], uploadOrigins: ["https://b.example"] }),
    );
    expect(csp["connect-src"]).toEqual(["'self'", "https://b.example"]);
  });

  it("connect-src follows the chain the browser talks to, never a private RPC_URL", () => {
    expect(browserRpcOrigins(envModule.parseEnv({}))).toEqual(
      expect.arrayContaining(["http://127.0.0.1:8545", "http://127.0.0.1:*", "http://localhost:*"]),
    );
    expect(
      browserRpcOrigins(envModule.parseEnv({ RPC_URL: "http://anvil.internal:8545" })),
    ).toContain("http://anvil.internal:8545");
    // On a public chain the browser uses the chain's public endpoint (public-info.ts), so a
    // keyed provider URL in RPC_URL stays out of the page's headers too.
    expect(
      browserRpcOrigins(
        envModule.parseEnv({
          CHAIN: "base-sepolia",
          RPC_URL: "https://base-sepolia.g.alchemy.com",
        }),
      ),
    ).toEqual(["https://sepolia.base.org"]);
  });
});
