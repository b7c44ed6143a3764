import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { type Address, type Hex, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as dripGET, POST as dripPOST } from "@/app/api/faucet/drip/route";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { type Db, getDb } from "@/db/client";
import { insertDrip } from "@/db/queries/faucet-drips";
import { chainTransactions, faucetDrips } from "@/db/schema";
import { startAnvil } from "@/lib/chain/anvil";
import { chainConfig, publicClient, requireUsdc } from "@/lib/chain/config";
import { reconcile } from "@/lib/settle/reconcile";
import { startOwnChain, withChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { signerNonceState } from "../helpers/treasury";
import { makeUser, type TestUser } from "../helpers/users";

// POST /api/faucet/drip on the real database and anvil. "Exactly once" is checked on-chain
// (balance and Transfer events from the treasury), not only in the database.

let db: Db;
beforeAll(async () => {
  db = await getDb();
});

const newAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const drip = (u: TestUser, address: string) =>
  call(dripPOST, { token: u.token, body: { address } });

const balanceOf = (who: Address) =>
  publicClient().readContract({
    address: requireUsdc(),
    abi: mockUsdcAbi,
    functionName: "balanceOf",
    args: [who],
  });

const transferEvent = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);
const treasuryTransfersTo = (to: Address) =>
  publicClient().getLogs({
    address: requireUsdc(),
    event: transferEvent,
    args: { from: chainConfig().treasuryAddress ?? undefined, to },
    fromBlock: 0n,
  });

const dripsFor = (address: string) =>
  db
    .select()
    .from(faucetDrips)
    .where(sql`lower(${faucetDrips.address}) = ${address.toLowerCase()}`);

const treasuryNonces = () => signerNonceState(db, chainConfig().treasuryAddress as Address);

describe("dripping once", () => {
  it("20 parallel drips for one address (several users) make exactly one transfer", async () => {
    const address = newAddress();
    const users = await Promise.all(Array.from({ length: 5 }, () => makeUser("creator")));
    const before = await balanceOf(address);
    const nonces = await treasuryNonces();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => drip(users[i % users.length] as TestUser, address)),
    );

    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const funded = results.filter((r) => r.body.funded === true);
    expect(funded).toHaveLength(1);
    const txHash = funded[0]?.body.txHash as Hex;
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    for (const r of results.filter((r) => r.body.funded === false))
      expect(r.body).toMatchObject({ amount: "2.00", txHash, reason: "already_funded" });
    expect(funded[0]?.body).toMatchObject({ funded: true, amount: "2.00", address });

    // On-chain: +2.00 USDC, one Transfer from the treasury, and it is the answered one.
    expect((await balanceOf(address)) - before).toBe(2_000_000n);
    const events = await treasuryTransfersTo(address);
    expect(events).toHaveLength(1);
    expect(events[0]?.transactionHash).toBe(txHash);
    expect(events[0]?.args.value).toBe(2_000_000n);
    const rows = await dripsFor(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("confirmed");
    // The 19 that lost were refused before any nonce was allocated: one nonce used, no no-op.
    const after = await treasuryNonces();
    expect(after.next).toBe(nonces.next + 1);
    expect(after.fills).toBe(nonces.fills);
  });

  it("a call that loses the address to another while it estimates allocates no nonce", async () => {
    const proxy = await startRpcProxy(chainConfig().rpcUrl);
    const [first, second] = await Promise.all([makeUser("creator"), makeUser("creator")]);
    const address = newAddress();
    try {
      await withChainEnv({ RPC_URL: proxy.url }, async () => {
        // The first call's gas estimate waits at the node while the second drips in full.
        const held = proxy.hold("eth_estimateGas");
        const late = drip(first, address);
        await held.arrived;
        const won = await drip(second, address);
        expect(won.body).toMatchObject({ funded: true, status: "confirmed" });
        const nonces = await treasuryNonces();
        held.release();
        const lost = await late;
        expect(lost.status).toBe(200);
        expect(lost.body).toMatchObject({ funded: false, txHash: won.body.txHash });
        // Refused by the claim, before the sender allocated anything for it.
        expect(await treasuryNonces()).toEqual(nonces);
      });
    } finally {
      await proxy.close();
    }
    expect(await treasuryTransfersTo(address)).toHaveLength(1);
  });

  it("one user, two addresses: the second answers already_funded with the first hash", async () => {
    const u = await makeUser("creator");
    const [first, second] = [newAddress(), newAddress()];
    const a = await drip(u, first.toLowerCase());
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ funded: true, amount: "2.00", address: first });
    expect(a.body.reason).toBeUndefined();

    const b = await drip(u, second);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(
      expect.objectContaining({
        funded: false,
        amount: "2.00",
        txHash: a.body.txHash,
        reason: "already_funded",
      }),
    );
    expect(await balanceOf(second)).toBe(0n);
    expect(await balanceOf(first)).toBe(2_000_000n);
    // And the same address again, by the same user.
    expect((await drip(u, first)).body).toMatchObject({ funded: false, txHash: a.body.txHash });
  });

  it("validates the address and needs a signed-in caller", async () => {
    const u = await makeUser("creator");
    const bad = await drip(u, "0x1234");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.details[0].path).toEqual(["address"]);
    expect((await call(dripPOST, { token: u.token, body: {} })).status).toBe(400);
    const zero = await drip(u, "0x0000000000000000000000000000000000000000");
    expect(zero.status).toBe(400);
    const anon = await call(dripPOST, { body: { address: newAddress() } });
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe("unauthenticated");
  });

  it("is disabled on a mainnet, before touching the chain", async () => {
    const u = await makeUser("creator");
    const address = newAddress();
    // A dead RPC proves the refusal comes first.
    const res = await withChainEnv({ CHAIN: "base", RPC_URL: "http://127.0.0.1:9" }, () =>
      drip(u, address),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: {
        code: "faucet_disabled",
        message: expect.stringContaining("testnet"),
        requestId: expect.stringMatching(/^req_/),
      },
    });
    expect(await dripsFor(address)).toHaveLength(0);
  });
});

describe("a chain that is late", () => {
  it("a frozen chain: 202 submitted with a poll URL within the budget; reconcile finishes the drip once", {
    timeout: 60_000,
  }, async () => {
    const own = await startOwnChain();
    const rpc = (method: string, params: unknown[] = []) =>
      fetch(own.anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
    const u = await makeUser("creator");
    const address = newAddress();
    try {
      await rpc("evm_setAutomine", [false]);
      let txHash: string;
      let poll: string;
      try {
        const res = await withChainEnv({ CHAIN_BUDGET_SECONDS: "1" }, () => drip(u, address));
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        expect(res.body).toMatchObject({ funded: true, amount: "2.00", status: "submitted" });
        expect(res.body.poll).toBe(`/api/faucet/drip?address=${address}`);
        txHash = res.body.txHash;
        poll = res.body.poll;
        const polled = await call(dripGET, { token: u.token, path: poll });
        expect(polled.status).toBe(200);
        expect(polled.body).toMatchObject({ status: "submitted", txHash, poll });
        expect(await balanceOf(address)).toBe(0n);
        // The poll is the caller's own: a stranger learns nothing.
        const stranger = await makeUser("creator");
        const other = await call(dripGET, { token: stranger.token, path: poll });
        expect(other.status).toBe(404);
      } finally {
        await rpc("evm_setAutomine", [true]);
      }
      await rpc("evm_mine");
      // Reconcile, targeted at the drip's transaction (a full run would also resume what
      // other test files left in flight on other nodes).
      const [row] = await dripsFor(address);
      const report = await reconcile(db, { transactionId: row?.chainTxId ?? "" });
      expect(report.transactions.confirmed).toBe(1);
      const done = await call(dripGET, { token: u.token, path: poll });
      expect(done.body).toMatchObject({ status: "confirmed", txHash });
      expect(done.body.poll).toBeUndefined();
      // Again: the same drip, nothing sent twice.
      const again = await drip(u, address);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ funded: false, reason: "already_funded", txHash });
      expect(await balanceOf(address)).toBe(2_000_000n);
      const events = await treasuryTransfersTo(address);
      expect(events.map((e) => e.transactionHash)).toEqual([txHash]);
    } finally {
      own.restore();
      await own.anvil.stop();
    }
  });
});

describe("a claim whose transfer is not recorded yet", () => {
  it("is waited for (409 busy past the budget), GET says busy, and once abandoned it is released and the next call drips", async () => {
    const [u, other] = await Promise.all([makeUser("creator"), makeUser("creator")]);
    const address = newAddress();
    // A call claimed the address and is recording its transfer (or died doing it).
    const claim = await insertDrip(db, {
      chainId: chainConfig().chainId,
      userId: u.user.id,
      address,
      amountUnits: 2_000_000n,
      txHash: null,
      chainTxId: null,
    });
    const busy = await withChainEnv({ CHAIN_BUDGET_SECONDS: "0.2" }, () => drip(other, address));
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe("conflict");
    const state = await call(dripGET, {
      token: u.token,
      path: `/api/faucet/drip?address=${address}`,
    });
    expect(state.status).toBe(409);

    // A minute later nothing recorded it: its process died. The next call releases it and drips.
    await db
      .update(faucetDrips)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(faucetDrips.id, claim.id));
    const res = await drip(other, address);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ funded: true, status: "confirmed" });
    expect(await balanceOf(address)).toBe(2_000_000n);
    const rows = await dripsFor(address);
    expect(rows.map((r) => [r.userId, r.chainTxId !== null])).toEqual([[other.user.id, true]]);
  });
});

describe("faults", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faucet-faults-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("chain down → 502 chain_unavailable and no drip row; after a restart it works", async () => {
    const stateFile = path.join(dir, "anvil-state.json");
    // A chain and treasury of its own: nonces on this node must not meet the shared node's rows.
    const own = await startOwnChain({ stateFile });
    let node = own.anvil;
    const treasury = own.treasury;
    const u = await makeUser("creator");
    const address = newAddress();
    try {
      await node.stop();
      const down = await drip(u, address);
      expect(down.status).toBe(502);
      expect(down.body).toEqual({
        error: {
          code: "chain_unavailable",
          message: expect.any(String),
          requestId: expect.stringMatching(/^req_/),
        },
      });
      expect(await dripsFor(address)).toHaveLength(0);
      const [userDrip] = await db
        .select()
        .from(faucetDrips)
        .where(eq(faucetDrips.userId, u.user.id));
      expect(userDrip).toBeUndefined();
      const signed = await db
        .select()
        .from(chainTransactions)
        .where(eq(chainTransactions.fromAddress, treasury));
      expect(signed).toHaveLength(0);

      node = await startAnvil({ port: node.port, stateFile });
      const up = { res: await drip(u, address), balance: await balanceOf(address) };
      expect(up.res.status).toBe(200);
      expect(up.res.body).toMatchObject({ funded: true, amount: "2.00" });
      expect(up.balance).toBe(2_000_000n);
    } finally {
      await node.stop();
      own.restore();
    }
  });

  it("a broadcast lost after recording stays pending; the next call resumes it", async () => {
    const proxy = await startRpcProxy(chainConfig().rpcUrl);
    const [u, other] = await Promise.all([makeUser("creator"), makeUser("creator")]);
    const address = newAddress();
    try {
      await withChainEnv({ RPC_URL: proxy.url }, async () => {
        proxy.failing.add("eth_sendRawTransaction");
        const lost = await drip(u, address);
        expect(lost.status).toBe(502);
        expect(lost.body.error.code).toBe("chain_unavailable");
        const [pending] = await dripsFor(address);
        expect(pending?.status).toBe("pending");
        expect(pending?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(await balanceOf(address)).toBe(0n);

        proxy.failing.clear();
        const again = await drip(u, address);
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({
          funded: false,
          reason: "already_funded",
          txHash: pending?.txHash,
          status: "confirmed",
        });
        expect(await balanceOf(address)).toBe(2_000_000n);
        expect((await drip(other, address)).body.txHash).toBe(pending?.txHash);
        const events = await treasuryTransfersTo(address);
        expect(events.map((e) => e.transactionHash)).toEqual([pending?.txHash]);
        expect((await dripsFor(address))[0]?.status).toBe("confirmed");
      });
    } finally {
      await proxy.close();
    }
  });
});
