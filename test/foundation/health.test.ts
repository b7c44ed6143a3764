import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import { closeDb, getDb } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import { type AnvilInstance, startAnvil } from "@/lib/chain/anvil";
import { cronSecret } from "@/lib/cron";
import { resetEnvCache } from "@/lib/env";
import { setChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";

// GET /api/health: 200 with both dependencies up; 503 `unavailable` in the error envelope,
// naming the dependency that is down, when the database or the chain is not there. The
// outages are real: an RPC URL on a closed port, a node of another chain, and a database
// URL on a closed port (the process-wide handle is closed and reopened against it; last,
// since with PGlite that drops this file's in-memory database).

let closedPort: number;
let otherChain: AnvilInstance;
let restoreAlert: (() => void) | undefined;

beforeAll(async () => {
  // A port nothing listens on: taken, then let go.
  closedPort = await new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  otherChain = await startAnvil({ port: 0, chainId: 999 });
  // The shared test database may hold other files' unmined transactions, however old: the
  // stuck-transaction alert (test/chain/replacement.test.ts) is not what this file checks.
  restoreAlert = setChainEnv({ TX_STUCK_ALERT_SECONDS: String(365 * 24 * 3600) });
});

afterAll(async () => {
  await otherChain?.stop();
  restoreAlert?.();
});

const health = () => call(healthRoute.GET, { path: "/api/health" });

/** Points the database at a closed port for `fn`, then back (reopened when next needed). */
async function withDatabaseDown<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${closedPort}/nowhere`;
  resetEnvCache();
  try {
    return await fn();
  } finally {
    await closeDb();
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    resetEnvCache();
  }
}

describe("GET /api/health", () => {
  it("200 with the database and the chain up", async () => {
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      db: "ok",
      chain: { chainId: 31337, blockNumber: expect.any(Number), name: expect.any(String) },
    });
  });

  // A deployment's cron secret (on PostgreSQL nothing is generated under DATA_DIR).
  let savedSecret: string | undefined;
  beforeAll(() => {
    savedSecret = process.env.CRON_SECRET;
    process.env.CRON_SECRET = "health-detail-secret-0123456789abcdef";
    resetEnvCache();
  });
  afterAll(() => {
    if (savedSecret === undefined) delete process.env.CRON_SECRET;
    else process.env.CRON_SECRET = savedSecret;
    resetEnvCache();
  });

  it("?detail=1 needs the cron secret: without it 401, and nothing is revealed", async () => {
    const res = await call(healthRoute.GET, { path: "/api/health?detail=1" });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
    expect(JSON.stringify(res.body)).not.toContain("queues");
  });

  it("?detail=1 with the cron secret: queue depths, the oldest unmined age, the signer's gas against the floor", async () => {
    await (await getDb())
      .insert(emailOutbox)
      .values({ toAddress: "ops@example.test", subject: "queued", body: "queued" });
    const detail = (floor: string) => {
      process.env.SIGNER_BALANCE_FLOOR_WEI = floor;
      resetEnvCache();
      return call(healthRoute.GET, {
        path: "/api/health?detail=1",
        token: cronSecret() as string,
      });
    };
    const saved = process.env.SIGNER_BALANCE_FLOOR_WEI;
    try {
      const fine = await detail("1");
      expect(fine.status, JSON.stringify(fine.body)).toBe(200);
      expect(fine.body).toMatchObject({ ok: true, db: "ok" });
      const { queues, signer } = fine.body.detail;
      expect(queues.outbox).toBeGreaterThanOrEqual(1);
      expect(queues).toEqual({
        outbox: expect.any(Number),
        webhooks: expect.any(Number),
        pendingTransactions: expect.any(Number),
        oldestPendingSeconds: queues.pendingTransactions ? expect.any(Number) : null,
      });
      expect(signer).toMatchObject({ address: expect.stringMatching(/^0x/), belowFloor: false });
      expect(BigInt(signer.balanceWei)).toBeGreaterThan(0n);
      // A floor above what the signer holds: flagged (and logged at error level).
      const low = await detail((BigInt(signer.balanceWei) + 1n).toString());
      expect(low.body.detail.signer.belowFloor).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.SIGNER_BALANCE_FLOOR_WEI;
      else process.env.SIGNER_BALANCE_FLOOR_WEI = saved;
      resetEnvCache();
    }
  });

  it("503 unavailable naming the chain when its RPC does not answer", async () => {
    const restore = setChainEnv({ RPC_URL: `http://127.0.0.1:${closedPort}` });
    try {
      const res = await health();
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: {
          code: "unavailable",
          message: expect.any(String),
          requestId: expect.any(String),
          details: { db: "ok", chain: "chain RPC unreachable", chainId: 31337 },
        },
      });
    } finally {
      restore();
    }
    expect((await health()).status).toBe(200);
  });

  it("503 when the RPC answers for another chain", async () => {
    const restore = setChainEnv({ RPC_URL: otherChain.rpcUrl });
    try {
      const res = await health();
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("unavailable");
      expect(res.body.error.details).toEqual({
        db: "ok",
        chain: "RPC answers for chain 999, expected 31337",
        chainId: 31337,
      });
    } finally {
      restore();
    }
  });

  it("503 unavailable naming the database when it is down (and both when both are)", async () => {
    await withDatabaseDown(async () => {
      const dbDown = await health();
      expect(dbDown.status).toBe(503);
      expect(dbDown.body).toEqual({
        error: {
          code: "unavailable",
          message: expect.any(String),
          requestId: expect.any(String),
          details: { db: "database unreachable", chain: "ok", chainId: 31337 },
        },
      });

      const restore = setChainEnv({ RPC_URL: `http://127.0.0.1:${closedPort}` });
      try {
        const bothDown = await health();
        expect(bothDown.status).toBe(503);
        expect(bothDown.body.error.details).toEqual({
          db: "database unreachable",
          chain: "chain RPC unreachable",
          chainId: 31337,
        });
      } finally {
        restore();
      }
    });
  });
});
