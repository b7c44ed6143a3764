import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A JSON-RPC proxy in front of a node that can drop chosen methods on the floor (the
// connection is destroyed, as when a node or load balancer dies mid-request): a way to make
// one step of a send fail while the others succeed. Its `chaos` settings make it behave like
// a hosted RPC endpoint on a bad day: `eth_getLogs` over more than `maxLogRange` blocks is
// refused, every `tooManyEvery`-th request is answered 429, every `dropEvery`-th one is cut
// off, and answers come `delayMs` late. The shares are counted, not drawn at random, so a
// test sees the same faults on every run.

/** A hosted endpoint's habits (each off while unset). */
export type Chaos = {
  /** eth_getLogs spanning more blocks than this is refused with a JSON-RPC error. */
  maxLogRange?: number;
  /** Every n-th request (counted over all methods) is answered HTTP 429. */
  tooManyEvery?: number;
  /** Every n-th request (counted over all methods) has its connection cut off. */
  dropEvery?: number;
  /** Every answer is held this long before it is sent. */
  delayMs?: number;
};

export type RpcProxy = {
  url: string;
  /** Methods whose requests are cut off while listed. */
  failing: Set<string>;
  /**
   * Methods forwarded to the node whose answer is then replaced by a JSON-RPC error with
   * this message: a node that did the work but words its reply in a way we do not know.
   */
  garbled: Map<string, string>;
  /** How many requests for each method reached the proxy. */
  counts: Map<string, number>;
  /** The hosted-endpoint faults in force (change them at any time). */
  chaos: Chaos;
  /** What the chaos settings did so far. */
  faults: { refusedRanges: number; tooMany: number; dropped: number };
  /**
   * Holds the next request for `method` before it reaches the node: `arrived` resolves with
   * its params when it comes in, and it goes on to the node when `release()` is called (a
   * way to change the chain between a call being made and the node acting on it).
   * `release({ result })` answers it with that result instead, without forwarding it (the
   * test has done the call itself).
   */
  hold(method: string): {
    arrived: Promise<unknown[]>;
    release(answer?: { result: unknown }): void;
  };
  close(): Promise<void>;
};

/** The block span of an eth_getLogs filter (tags resolved against the node's head). */
async function logRange(target: string, params: unknown[]): Promise<bigint | null> {
  const filter = params[0] as { fromBlock?: string; toBlock?: string; blockHash?: string };
  if (!filter || filter.blockHash) return null;
  let head: bigint | undefined;
  const resolve = async (tag: string | undefined): Promise<bigint> => {
    if (tag && /^0x[0-9a-f]+$/i.test(tag)) return BigInt(tag);
    if (tag === "earliest") return 0n;
    if (head === undefined) {
      const res = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      });
      head = BigInt(((await res.json()) as { result: string }).result);
    }
    return head;
  };
  return (await resolve(filter.toBlock)) - (await resolve(filter.fromBlock ?? "latest")) + 1n;
}

const every = (n: number | undefined, count: number) => Boolean(n && n > 0 && count % n === 0);

export async function startRpcProxy(target: string, chaos: Chaos = {}): Promise<RpcProxy> {
  const faults = { refusedRanges: 0, tooMany: 0, dropped: 0 };
  let requests = 0;
  const failing = new Set<string>();
  const garbled = new Map<string, string>();
  const counts = new Map<string, number>();
  type Held = {
    arrive(params: unknown[]): void;
    released: Promise<{ result: unknown } | undefined>;
  };
  const holds = new Map<string, Held>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let method = "";
    let id: unknown = null;
    let params: unknown[] = [];
    try {
      ({
        method = "",
        id = null,
        params = [],
      } = JSON.parse(body) as { method?: string; id?: unknown; params?: unknown[] });
    } catch {}
    counts.set(method, (counts.get(method) ?? 0) + 1);
    requests++;
    const answer = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    if (every(proxy.chaos.dropEvery, requests)) {
      faults.dropped++;
      req.socket.destroy();
      return;
    }
    if (every(proxy.chaos.tooManyEvery, requests)) {
      faults.tooMany++;
      answer(429, { jsonrpc: "2.0", id, error: { code: 429, message: "Too Many Requests" } });
      return;
    }
    if (proxy.chaos.delayMs) await new Promise((r) => setTimeout(r, proxy.chaos.delayMs));
    const cap = proxy.chaos.maxLogRange;
    if (method === "eth_getLogs" && cap !== undefined) {
      const span = await logRange(target, params).catch(() => null);
      if (span !== null && span > BigInt(cap)) {
        faults.refusedRanges++;
        answer(200, {
          jsonrpc: "2.0",
          id,
          error: { code: -32005, message: `query exceeds max block range ${cap}` },
        });
        return;
      }
    }
    const held = holds.get(method);
    if (held) {
      holds.delete(method);
      held.arrive(params);
      const given = await held.released;
      if (given) {
        answer(200, { jsonrpc: "2.0", id, result: given.result });
        return;
      }
    }
    if (failing.has(method)) {
      req.socket.destroy();
      return;
    }
    try {
      const upstream = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await upstream.text();
      res.writeHead(upstream.status, { "content-type": "application/json" });
      const message = garbled.get(method);
      res.end(
        message === undefined
          ? text
          : JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message } }),
      );
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: RpcProxy = {
    url: `http://127.0.0.1:${port}`,
    failing,
    garbled,
    counts,
    chaos,
    faults,
    hold(method) {
      let arrive!: (params: unknown[]) => void;
      let release!: (answer?: { result: unknown }) => void;
      const arrived = new Promise<unknown[]>((r) => {
        arrive = r;
      });
      const released = new Promise<{ result: unknown } | undefined>((r) => {
        release = r;
      });
      holds.set(method, { arrive, released });
      return { arrived, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
