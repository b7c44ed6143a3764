import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and integration tests. Integration tests call the real route handlers against a
// real database (PostgreSQL when TEST_DATABASE_URL is set, else PGlite) and a real anvil
// node, both prepared by test/global-setup.ts.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/**/*.test.ts", "lib/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-chain.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
