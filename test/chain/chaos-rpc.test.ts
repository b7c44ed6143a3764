import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilInstance, startAnvil } from "@/lib/chain/anvil";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

// The test helpers for a real chain's conditions: anvil mining a block every second
// (--block-time) instead of one per transaction, and the chaos proxy in front of it
// (test/helpers/rpc-proxy.ts) behaving like a hosted endpoint: capped log ranges, 429s,
// dropped connections, late answers.

let node: AnvilInstance;
let proxy: RpcProxy;

beforeAll(async () => {
  node = await startAnvil({ port: 0, blockTime: 1 });
  proxy = await startRpcProxy(node.rpcUrl);
});

afterAll(async () => {
  await proxy?.close();
  await node?.stop();
});

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  return { status: res.status, ...body };
}

const blockNumber = async (url: string) =>
  Number(BigInt((await rpc(url, "eth_blockNumber")).result as string));

describe("anvil with --block-time", () => {
  it("mines blocks on its own, with nothing sent", async () => {
    const start = await blockNumber(node.rpcUrl);
    // A bounded poll for the next block (the node's own clock moves it, not the test).
    let now = start;
    for (let i = 0; i < 100 && now <= start; i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = await blockNumber(node.rpcUrl);
    }
    expect(now).toBeGreaterThan(start);
  });
});

describe("the chaos proxy", () => {
  it("refuses eth_getLogs over more blocks than its cap, and answers within it", async () => {
    proxy.chaos.maxLogRange = 2;
    try {
      // Wait for a chain of at least three blocks.
      while ((await blockNumber(node.rpcUrl)) < 3) await new Promise((r) => setTimeout(r, 200));
      const wide = await rpc(proxy.url, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "0x2" }]);
      expect(wide.error?.message).toContain("max block range 2");
      const fromStart = await rpc(proxy.url, "eth_getLogs", [{ fromBlock: "0x0" }]);
      expect(fromStart.error?.message).toContain("max block range 2");
      const narrow = await rpc(proxy.url, "eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x2" }]);
      expect(narrow.result).toEqual([]);
      expect(proxy.faults.refusedRanges).toBe(2);
    } finally {
      proxy.chaos.maxLogRange = undefined;
    }
  });

  it("answers every n-th request 429 and cuts every m-th one off", async () => {
    proxy.chaos.tooManyEvery = 3;
    proxy.chaos.dropEvery = 4;
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        const outcome = await rpc(proxy.url, "eth_chainId")
          .then((r) => (r.status === 429 ? "429" : r.result === "0x7a69" ? "ok" : "other"))
          .catch(() => "dropped");
        outcomes.push(outcome);
      }
    } finally {
      proxy.chaos.tooManyEvery = undefined;
      proxy.chaos.dropEvery = undefined;
    }
    expect(outcomes.filter((o) => o === "429").length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === "dropped").length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === "ok").length).toBeGreaterThan(0);
    expect(outcomes).not.toContain("other");
    expect(proxy.faults.tooMany + proxy.faults.dropped).toBe(
      outcomes.filter((o) => o !== "ok").length,
    );
  });

  it("answers late, but answers", async () => {
    proxy.chaos.delayMs = 200;
    try {
      expect((await rpc(proxy.url, "eth_chainId")).result).toBe("0x7a69");
    } finally {
      proxy.chaos.delayMs = undefined;
    }
  });
});
