import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A JSON-RPC proxy in front of a node that can drop chosen methods on the floor (the
// connection is destroyed, as when a node or load balancer dies mid-request): a way to make
// one step of a send fail while the others succeed.

export type RpcProxy = {
  url: string;
  /** Methods whose requests are cut off while listed. */
  failing: Set<string>;
  /** How many requests for each method reached the proxy. */
  counts: Map<string, number>;
  close(): Promise<void>;
};

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const failing = new Set<string>();
  const counts = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let method = "";
    try {
      method = (JSON.parse(body) as { method?: string }).method ?? "";
    } catch {}
    counts.set(method, (counts.get(method) ?? 0) + 1);
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
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(await upstream.text());
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failing,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
