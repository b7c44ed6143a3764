import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A JSON-RPC proxy in front of a node that can drop chosen methods on the floor (the
// connection is destroyed, as when a node or load balancer dies mid-request): a way to make
// one step of a send fail while the others succeed.

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

export async function startRpcProxy(target: string): Promise<RpcProxy> {
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
    const held = holds.get(method);
    if (held) {
      holds.delete(method);
      held.arrive(params);
      const answer = await held.released;
      if (answer) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: answer.result }));
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
      const answer = await upstream.text();
      res.writeHead(upstream.status, { "content-type": "application/json" });
      const message = garbled.get(method);
      res.end(
        message === undefined
          ? answer
          : JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message } }),
      );
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failing,
    garbled,
    counts,
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
}
