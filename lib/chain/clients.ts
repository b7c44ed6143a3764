import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import {
  type Chain,
  createPublicClient,
  createWalletClient,
  fallback,
  type Hex,
  type HttpTransport,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { inSpan, rpcMethodOf } from "@/lib/telemetry";

// viem clients built from explicit configuration (callers pass what lib/env resolved).

export interface ChainClientConfig {
  chain: Chain;
  rpcUrl: string;
  /**
   * More endpoints for the same chain: requests go to `rpcUrl` first and move down the list
   * when it fails (viem's `fallback` transport), e.g. a hosted RPC that answers 429 or drops.
   */
  fallbackUrls?: string[];
  /** Per-request timeout; defaults to 10s so a dead RPC fails fast instead of hanging a request. */
  timeoutMs?: number;
  /** Retries on transport errors (viem backs off exponentially); small so failures surface quickly. */
  retryCount?: number;
}

export type ChainPublicClient = PublicClient<Transport, Chain>;
export type ChainWalletClient = WalletClient<Transport, Chain, PrivateKeyAccount>;

const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * The JSON-RPC transport's fetch, on node:http with keep-alive connections. Node 20's fetch
 * (undici behind WHATWG streams) cost ~1 ms of CPU per call on the settle path (profile of
 * bench/throughput.ts); a JSON-RPC call needs none of what it builds. It keeps fetch's
 * contract where viem relies on it: network failures and aborts reject (viem turns them
 * into HttpRequestError / TimeoutError, which isTransportError recognises), the status and
 * headers are passed on, and the body is capped.
 */
export const rpcFetch = ((input: string | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(String(input));
  // A span per JSON-RPC call (lib/telemetry.ts): its method and the node's host, never the
  // URL's path (a hosted RPC URL carries its key there).
  const method = rpcMethodOf(init?.body);
  return inSpan(
    `rpc ${method}`,
    { "rpc.system": "jsonrpc", "rpc.method": method, "server.address": url.hostname },
    async (span) => {
      const res = await rpcRequest(url, init);
      span.setAttribute("http.response.status_code", res.status);
      return res;
    },
  );
}) as typeof fetch;

function rpcRequest(url: URL, init?: RequestInit): Promise<Response> {
  const secure = url.protocol === "https:";
  return new Promise<Response>((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: init?.method ?? "POST",
        headers: init?.headers as Record<string, string> | undefined,
        agent: secure ? agents.https : agents.http,
        signal: init?.signal ?? undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) req.destroy(new Error("RPC response too large"));
          else chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
          // Only what viem reads of a Response (rpc/http.ts): no body stream to build.
          resolve({
            ok: status >= 200 && status < 300,
            status,
            statusText: res.statusMessage ?? "",
            headers,
            body: null,
            text: async () => text,
            json: async () => JSON.parse(text),
          } as unknown as Response);
        });
      },
    );
    req.on("error", reject);
    req.end(typeof init?.body === "string" ? init.body : undefined);
  });
}

function transport(config: ChainClientConfig): Transport {
  const one = (url: string, retryCount = config.retryCount ?? 2): HttpTransport =>
    http(url, {
      timeout: config.timeoutMs ?? 10_000,
      retryCount,
      retryDelay: 250,
      fetchFn: rpcFetch,
    });
  if (!config.fallbackUrls?.length) return one(config.rpcUrl);
  // A request an endpoint fails (down, 429, dropped) goes straight to the next one; the
  // list as a whole is retried. No ranking: the order given is the order of preference.
  return fallback(
    [config.rpcUrl, ...config.fallbackUrls].map((url) => one(url, 0)),
    { retryCount: config.retryCount ?? 2, retryDelay: 250 },
  );
}

export function makePublicClient(config: ChainClientConfig): ChainPublicClient {
  return createPublicClient({
    chain: config.chain,
    transport: transport(config),
    // Anvil automines instantly; remote chains are polled at viem's default (block-time based).
    pollingInterval: config.chain.id === 31_337 ? 100 : undefined,
  });
}

export function makeWalletClient(config: ChainClientConfig, privateKey: Hex): ChainWalletClient {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: config.chain,
    transport: transport(config),
    pollingInterval: config.chain.id === 31_337 ? 100 : undefined,
  });
}
