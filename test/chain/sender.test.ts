import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { eq } from "drizzle-orm";
import { type Address, type Hex, parseAbiItem } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { chainTransactions } from "@/db/schema";
import { publicClient } from "@/lib/chain/config";
import {
  broadcast,
  getChainTransaction,
  recordTransaction,
  resumeTransaction,
  sendTransaction,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import { withChainEnv } from "../helpers/chain-env";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { newAddress, treasurySender, usdcBalance, usdcTransfer } from "../helpers/treasury";

// The sender on the real database and the shared anvil, with this file's own treasury key
// and contracts (test/setup-chain.ts): nonces under concurrency, refusals, resumes, and
// two processes sharing one signer through Postgres advisory locks.

let db: Db;
let key: Hex;
let treasury: Address;
let usdc: Address;

beforeAll(async () => {
  ({ db, key, treasury, usdc } = await treasurySender());
});

const transfer = (to: Address, amount: bigint, purpose = "test:transfer") =>
  usdcTransfer(usdc, to, amount, purpose);

const balanceOf = (who: Address) => usdcBalance(usdc, who);

const minedNonce = () => publicClient().getTransactionCount({ address: treasury });

const transferEvent = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);
const transfersTo = (to: Address) =>
  publicClient().getLogs({
    address: usdc,
    event: transferEvent,
    args: { from: treasury, to },
    fromBlock: 0n,
  });

describe("sending through the sender", () => {
  it("50 concurrent transfers get 50 distinct nonces and all confirm on-chain", {
    timeout: 60_000,
  }, async () => {
    const startNonce = await minedNonce();
    const before = await balanceOf(treasury);
    const recipients = Array.from({ length: 50 }, () => newAddress());
    const rows = await Promise.all(
      recipients.map((to, i) => sendTransaction(db, key, transfer(to, BigInt(i + 1)))),
    );

    const nonces = rows.map((r) => r.nonce).sort((a, b) => a - b);
    expect(new Set(nonces).size).toBe(50);
    expect(nonces).toEqual(Array.from({ length: 50 }, (_, i) => startNonce + i));
    expect(rows.every((r) => r.status === "confirmed" && r.blockNumber !== null)).toBe(true);

    const balances = await Promise.all(recipients.map(balanceOf));
    expect(balances).toEqual(recipients.map((_, i) => BigInt(i + 1)));
    expect(before - (await balanceOf(treasury))).toBe(1275n); // 1 + 2 + … + 50
    expect(await minedNonce()).toBe(startNonce + 50);
  });

  it("a transaction the node refuses is marked failed and frees its nonce", async () => {
    const client = publicClient();
    const to = newAddress();
    const recorded = await recordTransaction(db, key, transfer(to, 7n));
    const gasMoney = await client.getBalance({ address: treasury });
    // Without ETH for gas the node refuses the signed bytes outright.
    await client.request({
      method: "anvil_setBalance" as never,
      params: [treasury, "0x0"] as never,
    });
    try {
      const err = await broadcast(db, recorded).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("chain_unavailable");
    } finally {
      await client.request({
        method: "anvil_setBalance" as never,
        params: [treasury, `0x${gasMoney.toString(16)}`] as never,
      });
    }
    const failed = await getChainTransaction(db, recorded.id);
    expect(failed?.status).toBe("failed");
    expect(failed?.blockNumber).toBeNull();

    const next = await sendTransaction(db, key, transfer(to, 8n));
    expect(next.nonce).toBe(recorded.nonce);
    expect(next.status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(8n);
    // Resuming the refused row (e.g. a stale copy held by a retry) must not send it now.
    expect((await resumeTransaction(db, recorded)).status).toBe("failed");
    expect(await balanceOf(to)).toBe(8n);
  });

  it("resuming a recorded-but-never-broadcast transaction sends it exactly once", async () => {
    const to = newAddress();
    const startNonce = await minedNonce();
    const recorded = await recordTransaction(db, key, transfer(to, 42n));
    expect(recorded.status).toBe("pending");
    expect(await minedNonce()).toBe(startNonce); // nothing left the building

    const resumed = await resumeTransaction(db, recorded);
    expect(resumed.status).toBe("confirmed");
    expect(resumed.hash).toBe(recorded.hash);
    expect(await balanceOf(to)).toBe(42n);

    // Again with the stale `pending` copy, and with the confirmed row: no second send.
    expect((await resumeTransaction(db, recorded)).status).toBe("confirmed");
    expect((await resumeTransaction(db, resumed)).status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(42n);
    expect(await transfersTo(to)).toHaveLength(1);
    expect(await minedNonce()).toBe(startNonce + 1);
  });

  it("a recorded row whose broadcast was lost does not hold later sends behind its nonce", async () => {
    const to = newAddress();
    const lost = await recordTransaction(db, key, transfer(to, 5n));
    // As if the RPC had failed right after recording, a while ago.
    await db
      .update(chainTransactions)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(chainTransactions.id, lost.id));
    const next = await sendTransaction(db, key, transfer(to, 6n));
    expect(next.nonce).toBe(lost.nonce + 1);
    // Confirmed, not left waiting for a receipt that could not come: the lost transaction
    // was broadcast first (the node mines nonces in order), so both are mined.
    expect(next.status).toBe("confirmed");
    expect(await minedNonce()).toBeGreaterThan(next.nonce);
    expect((await getChainTransaction(db, lost.id))?.status).toBe("submitted");
    expect((await resumeTransaction(db, lost)).status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(11n);
  });

  it("broadcasting bytes the node already holds (pooled or mined) is not a refusal", async () => {
    const to = newAddress();
    const first = await recordTransaction(db, key, transfer(to, 1n));
    const second = await recordTransaction(db, key, transfer(to, 2n));
    expect(second.nonce).toBe(first.nonce + 1);
    // `second` waits in the pool for the nonce gap; sending it again is "already imported".
    expect((await broadcast(db, second)).status).toBe("submitted");
    expect((await broadcast(db, second)).status).toBe("submitted");
    await broadcast(db, first);
    const [a, b] = await Promise.all([resumeTransaction(db, first), resumeTransaction(db, second)]);
    expect([a.status, b.status]).toEqual(["confirmed", "confirmed"]);
    // Once mined, the node says "nonce too low": that is this very transaction, not a refusal.
    expect((await broadcast(db, first)).status).toBe("confirmed");
    expect((await getChainTransaction(db, first.id))?.status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(3n);
  });
});

describe("a node that words its answers in ways we do not know", () => {
  // Before: a broadcast error whose text was not on a list of known phrases ("already
  // known", …) freed the nonce, so the caller's retry signed and sent a second transfer
  // while the first one was already mined. Now the chain decides, not the wording.
  it("a transfer the node accepted but answered with an unknown error is confirmed, never sent twice", async () => {
    const rpcUrl = process.env.RPC_URL as string;
    const proxy = await startRpcProxy(rpcUrl);
    proxy.garbled.set("eth_sendRawTransaction", "txpool: entry exists (code 7)");
    const to = newAddress();
    try {
      const row = await withChainEnv({ RPC_URL: proxy.url }, async () => {
        const recorded = await recordTransaction(db, key, transfer(to, 9n));
        const sent = await broadcast(db, recorded);
        // What a caller does after an error: resume (or send again for the same purpose).
        return resumeTransaction(db, sent);
      });
      expect(row.status).toBe("confirmed");
      expect((await getChainTransaction(db, row.id))?.status).toBe("confirmed");
    } finally {
      await proxy.close();
    }
    // The nonce was not handed out again: the next transfer gets a new one and pays once.
    const next = await sendTransaction(db, key, transfer(to, 1n));
    expect(next.status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(10n);
    expect(await transfersTo(to)).toHaveLength(2);
  });
});

const sharedDatabase = Boolean(process.env.DATABASE_URL);

describe("two app processes", () => {
  it.skipIf(!sharedDatabase)(
    "never collide on a nonce (PostgreSQL only: PGlite is in-memory per process, so it is skipped there)",
    async () => {
      const to = newAddress();
      const perProcess = 20;
      const worker = ["--import", "tsx", "test/chain/send-worker.ts", String(perProcess), to];
      const child = spawn(process.execPath, worker, {
        env: { ...process.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      const lines = createInterface({ input: child.stdout });
      const output: string[] = [];
      const ready = new Promise<void>((resolve, reject) => {
        lines.on("line", (line) => {
          if (line === "ready") resolve();
          else output.push(line);
        });
        child.on("exit", (code) => reject(new Error(`worker exited (${code}): ${stderr}`)));
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      await ready;

      child.stdin.write("go\n");
      const mine = await Promise.all(
        Array.from({ length: perProcess }, () =>
          sendTransaction(db, key, transfer(to, 1n, "test:parent-transfer")),
        ),
      );
      expect(await exited).toBe(0);
      const theirs = JSON.parse(output.at(-1) ?? "[]") as Array<{ nonce: number; status: string }>;

      expect(theirs).toHaveLength(perProcess);
      const all = [...mine.map((r) => r.nonce), ...theirs.map((r) => r.nonce)];
      expect(new Set(all).size).toBe(2 * perProcess);
      expect([...mine, ...theirs].every((r) => r.status === "confirmed")).toBe(true);
      expect(await balanceOf(to)).toBe(BigInt(2 * perProcess));
      const rows = await db
        .select()
        .from(chainTransactions)
        .where(eq(chainTransactions.fromAddress, treasury));
      const live = rows.filter((r) => r.status !== "failed" || r.blockNumber !== null);
      expect(new Set(live.map((r) => r.nonce)).size).toBe(live.length);
    },
    60_000,
  );
});
