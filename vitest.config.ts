import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Unit and integration tests, as two projects sharing one pool of workers:
// - integration: tests that call the real route handlers against a real database
//   (PostgreSQL when TEST_DATABASE_URL is set, else PGlite) and the shared anvil, both
//   prepared once per run by test/global-setup.ts; before each file, test/setup-chain.ts
//   points it at its worker slot's contracts and test/setup-db.ts opens the database in a
//   hook with its own budget. Any test file not listed below is an integration test.
// - standalone: files that need neither the database nor the shared chain (pure functions,
//   or a throwaway anvil / child processes of their own): no set-up at all.
const standalone = [
  "test/foundation/env.test.ts",
  "test/foundation/node-runtime.test.ts",
  "test/storage/storage.test.ts",
  "test/verify/draft-match.test.ts",
  "test/foundation/readme.test.ts",
  "test/foundation/http.test.ts",
  "test/auth/safe-next.test.ts",
  "test/chain/rpc-fetch.test.ts",
  "test/foundation/openapi.test.ts",
  "test/docs/examples.test.ts",
  "test/client/package.test.ts",
  "test/settle/payout.test.ts",
  "test/verify/checks.test.ts",
  "test/verify/disclosure.test.ts",
  "test/net/safe-fetch.test.ts",
  "test/verify/evidence-adapters.test.ts",
  "test/verify/eval.test.ts",
  "test/verify/rubric.test.ts",
  "test/verify/providers.test.ts",
  "test/verify/calibration.test.ts",
  "test/contracts/anvil.test.ts",
  "test/contracts/token.test.ts",
  "test/contracts/registry.test.ts",
  "test/contracts/escrow.test.ts",
  "test/chain/deploy-script.test.ts",
  "test/db/data-dir-lock.test.ts",
  "test/db/migrations.test.ts",
  "test/db/disclosure-migration.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The workspace package from its source, as tsconfig.json's paths say (no build needed).
      "@milestone/client": path.resolve(import.meta.dirname, "packages/client/src/index.ts"),
      // Server modules say so with `import "server-only"` (Next's bundler resolves it: empty on
      // the server, an error in a client bundle); tests run them on the server.
      "server-only": path.resolve(
        import.meta.dirname,
        "node_modules/next/dist/compiled/server-only/empty.js",
      ),
    },
  },
  test: {
    pool: "forks",
    maxWorkers: 2,
    // Set-up lives in hooks (their own budget); a test's budget is for the test itself.
    testTimeout: 30_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: { name: "standalone", include: standalone },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", "lib/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...standalone],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/setup-chain.ts", "test/setup-db.ts"],
        },
      },
    ],
  },
});
