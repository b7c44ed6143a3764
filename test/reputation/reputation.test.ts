import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Address, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as reputationGET } from "@/app/api/reputation/[wallet]/route";
import { reputationRegistryAbi } from "@/contracts/artifacts";
import { type Db, getDb } from "@/db/client";
import { chainTransactions } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import {
  milestoneIdFromRef,
  milestoneRef,
  readReputation,
  recordReputation,
} from "@/lib/chain/reputation";
import { withChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// Reputation written through the sender (as settlement will) and read back from the chain,
// by the library and through GET /api/reputation/:wallet.

let db: Db;
let caller: TestUser;
beforeAll(async () => {
  db = await getDb();
  caller = await makeUser("organization");
});

const newWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const getReputation = (wallet: string, token = caller.token) =>
  call(reputationGET, { token, params: { wallet } });

async function recordedEvents(txHashes: string[]) {
  const receipts = await Promise.all(
    txHashes.map((hash) => publicClient().getTransactionReceipt({ hash: hash as `0x${string}` })),
  );
  return parseEventLogs({
    abi: reputationRegistryAbi,
    eventName: "SettlementRecorded",
    logs: receipts.flatMap((r) => r.logs),
  });
}

describe("milestoneRef", () => {
  it("is the UUID left-padded to bytes32, and reversible", () => {
    const id = "0b5e8a8e-4f0c-4d7e-9b1a-2c3d4e5f6a7b";
    const ref = milestoneRef(id);
    expect(ref).toBe(`0x${"0".repeat(32)}0b5e8a8e4f0c4d7e9b1a2c3d4e5f6a7b`);
    expect(milestoneIdFromRef(ref)).toBe(id);
    expect(milestoneIdFromRef(`0x${"ab".repeat(32)}`)).toBeNull();
    expect(() => milestoneRef("not-a-uuid")).toThrow(RangeError);
  });
});

describe("recording and reading reputation", () => {
  it("reads back what three settlements recorded on-chain", async () => {
    const wallet = newWallet();
    const scores = [8000, 9000, 6500];
    const results = [];
    for (const scoreBps of scores)
      results.push(
        await recordReputation(db, {
          wallet,
          scoreBps,
          milestoneId: randomUUID(),
          amountUnits: 50_000_000n,
        }),
      );
    expect(results.map((r) => r.status)).toEqual(["recorded", "recorded", "recorded"]);
    expect(results.every((r) => r.transaction?.status === "confirmed")).toBe(true);

    const events = await recordedEvents(results.map((r) => r.txHash as string));
    expect(events.map((e) => e.args.scoreBps)).toEqual(scores);
    expect(events.map((e) => e.args.milestoneRef)).toEqual(results.map((r) => r.milestoneRef));

    const rep = await readReputation(wallet);
    // The registry's mean: floor((8000 + 9000 + 6500) / 3) = 7833 bps.
    expect(rep).toEqual({
      wallet,
      chainId: 31_337,
      registry: chainConfig().registry,
      count: 3,
      score: 0.7833,
    });

    const res = await getReputation(wallet.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(rep);
  });

  it("recording the same milestone twice (or concurrently) sends once", async () => {
    const wallet = newWallet();
    const input = { wallet, scoreBps: 7000, milestoneId: randomUUID(), amountUnits: 1n };
    const [a, b, c] = await Promise.all([
      recordReputation(db, input),
      recordReputation(db, input),
      recordReputation(db, input),
    ]);
    const again = await recordReputation(db, input);
    expect(again.status).toBe("already_recorded");
    const hashes = new Set([a, b, c, again].map((r) => r.txHash));
    expect(hashes.size).toBe(1);

    const rows = await db
      .select()
      .from(chainTransactions)
      .where(
        eq(chainTransactions.purpose, `reputation:${chainConfig().registry}:${a.milestoneRef}`),
      );
    expect(rows).toHaveLength(1);
    expect((await readReputation(wallet)).count).toBe(1);
  });

  it("`link` runs in the recording transaction: when it fails nothing is recorded or sent", async () => {
    const wallet = newWallet();
    const input = { wallet, scoreBps: 5000, milestoneId: randomUUID(), amountUnits: 1n };
    const ref = milestoneRef(input.milestoneId);
    let seen: string | null = null;
    await expect(
      recordReputation(db, input, async (_tx, row) => {
        seen = row.hash;
        throw new Error("settlement row vanished");
      }),
    ).rejects.toThrow("settlement row vanished");
    expect(seen).toMatch(/^0x/);
    const rows = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.purpose, `reputation:${chainConfig().registry}:${ref}`));
    expect(rows).toHaveLength(0);
    expect((await readReputation(wallet)).count).toBe(0);
  });
});

describe("GET /api/reputation/:wallet", () => {
  it("a wallet with no record: count 0, score null", async () => {
    const wallet = newWallet();
    const res = await getReputation(wallet);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ wallet, count: 0, score: null, chainId: 31_337 });
  });

  it("400 for a bad address, 401 without credentials", async () => {
    const bad = await getReputation("0xnope");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    const anon = await call(reputationGET, { params: { wallet: newWallet() } });
    expect(anon.status).toBe(401);
  });

  it("503 not_configured without a registry (or with no contract at it), 502 when the chain is down", async () => {
    const unset = await withChainEnv({ REPUTATION_REGISTRY_ADDRESS: undefined }, () =>
      getReputation(newWallet()),
    );
    expect(unset.status).toBe(503);
    expect(unset.body.error.code).toBe("not_configured");
    const empty = await withChainEnv({ REPUTATION_REGISTRY_ADDRESS: newWallet() }, () =>
      getReputation(newWallet()),
    );
    expect(empty.status).toBe(503);
    expect(empty.body.error.code).toBe("not_configured");
    const down = await withChainEnv({ RPC_URL: "http://127.0.0.1:9" }, () =>
      getReputation(newWallet()),
    );
    expect(down.status).toBe(502);
    expect(down.body.error.code).toBe("chain_unavailable");
  });
});
