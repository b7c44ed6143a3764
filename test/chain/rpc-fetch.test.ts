import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpRequestError, TimeoutError } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePublicClient } from "@/lib/chain/clients";
import { isTransportError } from "@/lib/chain/sender";

// The JSON-RPC transport's fetch (rpcFetch, node:http with keep-alive) against a local
// server that answers, hangs, hangs up, or fails: viem must see what it sees with fetch —
// the result, a TimeoutError, an HttpRequestError — so "the chain is down" keeps its meaning.

let server: Server;
let url: string;
const sockets = new Set<import("node:net").Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      if (method === "eth_chainId") {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x7a69" }));
      } else if (method === "eth_blockNumber") {
        // Hangs: never answers.
      } else if (method === "eth_gasPrice") {
        req.socket.destroy(); // hangs up
      } else {
        res.statusCode = 503;
        res.end("upstream unavailable");
      }
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const client = () =>
  makePublicClient({ chain: foundry, rpcUrl: url, timeoutMs: 300, retryCount: 0 });

describe("the RPC transport on node:http", () => {
  it("returns the result, twice over one kept-alive connection", async () => {
    expect(await client().getChainId()).toBe(31_337);
    expect(await client().getChainId()).toBe(31_337);
  });

  it("a node that does not answer is a TimeoutError, a transport error", async () => {
    const err = await client()
      .getBlockNumber({ cacheTime: 0 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.walk((e: unknown) => e instanceof TimeoutError)).toBeTruthy();
    expect(isTransportError(err)).toBe(true);
  });

  it("a node that hangs up is an HttpRequestError, a transport error", async () => {
    const err = await client()
      .getGasPrice()
      .catch((e) => e);
    expect(err.walk((e: unknown) => e instanceof HttpRequestError)).toBeTruthy();
    expect(isTransportError(err)).toBe(true);
  });

  it("an HTTP error status is an HttpRequestError with the status and body", async () => {
    const err = await client()
      .getTransactionCount({ address: "0x0000000000000000000000000000000000000001" })
      .catch((e) => e);
    const http = err.walk((e: unknown) => e instanceof HttpRequestError) as HttpRequestError;
    expect(http.status).toBe(503);
    expect(http.details).toContain("upstream unavailable");
  });
});
