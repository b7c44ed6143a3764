import { EventEmitter, once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { blockedAddressReason } from "@/lib/net/ip";
import { type Resolver, SafeFetchError, safeFetch } from "@/lib/net/safe-fetch";

// Local servers stand in for the outside world. Every refusal is checked for its code and
// for what matters most: the server behind the refused address never saw a request.

type Local = { server: http.Server; port: number; hits: string[]; close(): Promise<void> };

async function localServer(handler: http.RequestListener, host = "127.0.0.1"): Promise<Local> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const json = (res: http.ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/** Names → addresses, as an attacker's DNS would answer. */
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

async function refusal(p: Promise<unknown>): Promise<SafeFetchError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}

const testEnv = parseEnv({ NODE_ENV: "test" });
const prodEnv = parseEnv({ NODE_ENV: "production" });

/** The server side of connections left stalled, to check the fetcher closed them. */
const stalled: net.Socket[] = [];
const stallEvents = new EventEmitter();
/** A payload long enough that a few of its compressed bytes are not all of it. */
const payload = JSON.stringify({ words: Array.from({ length: 2000 }, (_, i) => `w${i}`) });
const encoders = {
  gzip: zlib.gzipSync,
  br: zlib.brotliCompressSync,
  deflate: zlib.deflateSync,
  identity: (b: Buffer) => b,
} as const;

/** Sends the headers and a few bytes of the body, then `then` (stall, or close the socket). */
function partial(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  encoding: keyof typeof encoders,
  then: "stall" | "close",
) {
  const body = encoders[encoding](Buffer.from(payload));
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": body.length,
    ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
  });
  res.write(body.subarray(0, 12), () => {
    if (then === "close") req.socket.destroy();
  });
  if (then === "stall") {
    stalled.push(req.socket);
    stallEvents.emit("stall");
  }
}

/** Resolves once the client has closed (or destroyed) a stalled connection. */
const closedByClient = (socket: net.Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed || socket.readableEnded) return resolve();
    socket.once("close", () => resolve());
    socket.once("end", () => resolve());
  });

let site: Local;
let internal: Local;
let internal6: Local;
const base = () => `http://public.test:${site.port}`;

beforeAll(async () => {
  internal = await localServer((_req, res) => json(res, { secret: "metadata" }));
  internal6 = await localServer((_req, res) => json(res, { secret: "v6" }), "::1");
  site = await localServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    switch (u.pathname) {
      case "/ok":
        return json(res, { hello: "world" });
      case "/gzip": {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return res.end(zlib.gzipSync(JSON.stringify({ zipped: true })));
      }
      case "/bomb": {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return res.end(zlib.gzipSync(Buffer.alloc(5 * 1024 * 1024, 32)));
      }
      case "/html":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end("<html></html>");
      case "/big":
        res.writeHead(200, { "content-type": "application/json", "content-length": 2_000_000 });
        return res.end(Buffer.alloc(2_000_000, 32));
      case "/big-chunked": {
        res.writeHead(200, { "content-type": "application/json" });
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024, 32));
        return res.end();
      }
      case "/stall/gzip":
      case "/stall/br":
      case "/stall/deflate":
      case "/stall/identity":
        return partial(req, res, u.pathname.split("/")[2] as keyof typeof encoders, "stall");
      case "/cut/gzip":
      case "/cut/br":
      case "/cut/identity":
        return partial(req, res, u.pathname.split("/")[2] as keyof typeof encoders, "close");
      case "/corrupt-gzip": {
        const good = zlib.gzipSync(payload);
        const bad = Buffer.concat([good.subarray(0, 10), Buffer.alloc(200, 0xa5)]);
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return res.end(bad);
      }
      case "/truncated-gzip": {
        // A complete HTTP message whose gzip stream stops half-way.
        const good = zlib.gzipSync(payload);
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return res.end(good.subarray(0, Math.floor(good.length / 2)));
      }
      case "/slow":
        res.writeHead(200, { "content-type": "application/json" });
        res.write("[");
        return; // never finishes
      case "/hang":
        return; // never answers
      case "/redirect":
        res.writeHead(302, { location: u.searchParams.get("to") ?? "/ok" });
        return res.end();
      case "/loop":
        res.writeHead(302, { location: `/loop?n=${Number(u.searchParams.get("n") ?? 0) + 1}` });
        return res.end();
      case "/gone":
        return json(res, { error: "not found" }, 404);
      case "/echo": {
        let body = "";
        req.on("data", (c) => {
          body += c;
        });
        req.on("end", () => json(res, { method: req.method, body }));
        return;
      }
      default:
        return json(res, {}, 404);
    }
  });
});

afterAll(async () => {
  for (const socket of stalled) socket.destroy();
  await Promise.all([site?.close(), internal?.close(), internal6?.close()]);
});

// "public.test" plays a public site: explicitly allowed (it is a local server), as tests must.
const opts = (extra: Parameters<typeof safeFetch>[1] = {}) => ({
  env: testEnv,
  allowHosts: [`public.test:${site.port}`],
  resolve: resolverOf({
    "public.test": ["127.0.0.1"],
    "evil.test": ["127.0.0.1"],
    "mixed.test": ["93.184.215.14", "10.0.0.5"],
    "private.test": ["192.168.1.20"],
    "metadata.test": ["169.254.169.254"],
    "v6private.test": ["fd00::1"],
  }),
  ...extra,
});

describe("address classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "link-local / cloud metadata"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved / broadcast"],
    ["168.63.129.16", "cloud metadata"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local / cloud metadata"],
    ["::ffff:10.0.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["fd00::1", "unique local (private)"],
    ["fd00:ec2::254", "unique local (private)"],
    ["fc00::1", "unique local (private)"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2001::1", "IETF protocol assignments"],
    ["2002:7f00:1::", "loopback"],
    ["2002:0a00:0001::1", "private"],
    ["64:ff9b::a00:1", "not global unicast"],
    ["not-an-ip", "not an IP address"],
  ])("%s is refused (%s)", (address, why) => {
    expect(blockedAddressReason(address)).toBe(why);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "172.32.0.1",
    "172.15.255.255",
    "100.128.0.1",
    "2606:4700::6810:84e5",
    "::ffff:8.8.8.8",
    "2002:0808:0808::1",
  ])("%s is public", (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });
});

describe("safeFetch refuses", () => {
  it.each([
    ["127.0.0.1", () => `http://127.0.0.1:${internal.port}/`],
    ["127.0.0.1 in another notation", () => `http://2130706433:${internal.port}/`],
    ["localhost (the system resolver)", () => `http://localhost:${internal.port}/`],
    ["a name resolving to loopback", () => `http://evil.test:${internal.port}/`],
  ])("loopback: %s (the server gets no request)", async (name, url) => {
    const resolve = name.startsWith("localhost") ? undefined : opts().resolve;
    const err = await refusal(safeFetch(url(), { ...opts(), resolve }));
    expect(err.code).toBe("blocked_address");
    expect(internal.hits).toEqual([]);
  });

  it("::1 (the IPv6 server gets no request)", async () => {
    const err = await refusal(safeFetch(`http://[::1]:${internal6.port}/`, opts()));
    expect(err.code).toBe("blocked_address");
    expect(err.message).toBe("The address of ::1 is not allowed; not fetched.");
    expect(internal6.hits).toEqual([]);
  });

  it.each([
    ["10/8", "http://10.0.0.1/"],
    ["172.16/12", "http://172.16.5.4/"],
    ["172.16/12 upper end", "http://172.31.0.1/"],
    ["192.168/16", "http://192.168.0.10/"],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/"],
    ["fd00::/8", "http://[fd00::1]/"],
    ["fe80::/10", "http://[fe80::1]/"],
    ["IPv4-mapped IPv6", "http://[::ffff:169.254.169.254]/"],
    ["unspecified", "http://0.0.0.0/"],
    ["CGNAT", "http://100.64.0.1/"],
    ["a name resolving to 192.168/16", "http://private.test/"],
    ["a name resolving to the metadata address", "http://metadata.test/"],
    ["a name resolving to fd00::/8", "http://v6private.test/"],
    ["a name with one public and one private address", "http://mixed.test/"],
  ])("%s", async (_name, url) => {
    const err = await refusal(safeFetch(url, opts()));
    expect(err.code).toBe("blocked_address");
    expect(err.message).toMatch(/^The address of .* is not allowed; not fetched\.$/);
  });

  it.each([
    ["localhost (the system resolver)", () => `http://localhost:${internal.port}/`, undefined],
    ["a name resolving to loopback", () => `http://evil.test:${internal.port}/`, "127.0.0.1"],
    ["a name resolving to 192.168/16", () => "http://private.test/", "192.168.1.20"],
    ["a name resolving to the metadata address", () => "http://metadata.test/", "169.254.169.254"],
    ["a name resolving to fd00::/8", () => "http://v6private.test/", "fd00::1"],
    ["a name with one public and one private address", () => "http://mixed.test/", "10.0.0.5"],
  ])("%s: the refusal names the host, not what it resolved to", async (name, url, answer) => {
    const resolve = name.startsWith("localhost") ? undefined : opts().resolve;
    const err = await refusal(safeFetch(url(), { ...opts(), resolve }));
    expect(err.code).toBe("blocked_address");
    const host = new URL(url()).hostname;
    expect(err.message).toBe(`The address of ${host} is not allowed; not fetched.`);
    for (const leaked of [answer, "127.0.0.1", "::1", "93.184.215.14"].filter(Boolean))
      expect(err.message).not.toContain(leaked);
    expect(err.message.replace(host, "")).not.toMatch(
      /loopback|private|metadata|link-local|unique local|resolves/,
    );
  });

  it.each([
    ["an IP literal", () => `http://127.0.0.1:${internal.port}/`],
    ["a name resolving to loopback", () => `http://evil.test:${internal.port}/`],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/"],
    ["an IPv6 private address", () => "http://[fd00::1]/"],
  ])("a redirect to %s (the internal server gets no request)", async (_name, to) => {
    const err = await refusal(
      safeFetch(`${base()}/redirect?to=${encodeURIComponent(to())}`, opts()),
    );
    expect(err.code).toBe("blocked_address");
    expect(internal.hits).toEqual([]);
  });

  it("more than 3 redirects", async () => {
    const before = site.hits.length;
    const err = await refusal(safeFetch(`${base()}/loop`, opts()));
    expect(err.code).toBe("too_many_redirects");
    expect(site.hits.slice(before)).toEqual([
      "GET /loop",
      "GET /loop?n=1",
      "GET /loop?n=2",
      "GET /loop?n=3",
    ]);
  });

  it("a declared oversize body, before reading it", async () => {
    const err = await refusal(safeFetch(`${base()}/big`, opts({ maxBytes: 100_000 })));
    expect(err.code).toBe("too_large");
  });

  it("an undeclared oversize body, while reading it", async () => {
    const err = await refusal(safeFetch(`${base()}/big-chunked`, opts({ maxBytes: 100_000 })));
    expect(err.code).toBe("too_large");
  });

  it("a compressed body that expands past the cap", async () => {
    const err = await refusal(safeFetch(`${base()}/bomb`, opts({ maxBytes: 100_000 })));
    expect(err.code).toBe("too_large");
  });

  it("a body that never finishes (total timeout)", async () => {
    const err = await refusal(safeFetch(`${base()}/slow`, opts({ timeoutMs: 300 })));
    expect(err.code).toBe("timeout");
  });

  // A guard, not a timing assertion: before the fix these never settled at all.
  const GUARD_MS = 10_000;

  it.each([
    ["gzip", "/stall/gzip"],
    ["brotli", "/stall/br"],
    ["deflate", "/stall/deflate"],
    ["uncompressed", "/stall/identity"],
  ])(
    "a %s body that stalls after a few bytes (total timeout; the socket is closed)",
    async (_name, path) => {
      const before = stalled.length;
      const err = await refusal(safeFetch(`${base()}${path}`, opts({ timeoutMs: 400 })));
      expect(err.code).toBe("timeout");
      expect(err.url).toBe(`${base()}${path}`);
      expect(stalled.length).toBe(before + 1);
      await closedByClient(stalled.at(-1) as net.Socket);
    },
    GUARD_MS,
  );

  it.each([
    ["gzip", "/cut/gzip"],
    ["brotli", "/cut/br"],
    ["uncompressed", "/cut/identity"],
  ])(
    "a %s body cut off by the server closing the connection",
    async (_name, path) => {
      // A long timeout: the refusal comes from the closed socket, not the deadline.
      const err = await refusal(safeFetch(`${base()}${path}`, opts({ timeoutMs: 60_000 })));
      expect(err.code).toBe("network_error");
      expect(err.message).toMatch(/cut off/);
    },
    GUARD_MS,
  );

  it.each([
    ["a corrupt gzip stream", "/corrupt-gzip"],
    ["a gzip stream that stops half-way in a complete response", "/truncated-gzip"],
  ])(
    "%s",
    async (_name, path) => {
      const err = await refusal(safeFetch(`${base()}${path}`, opts({ timeoutMs: 60_000 })));
      expect(err.code).toBe("network_error");
    },
    GUARD_MS,
  );

  it(
    "a stalled gzip body is cancelled by the caller's signal too",
    async () => {
      const caller = new AbortController();
      const sent = once(stallEvents, "stall");
      const p = safeFetch(
        `${base()}/stall/gzip`,
        opts({ timeoutMs: 60_000, signal: caller.signal }),
      );
      // Cancel once the server has sent its partial answer (no sleep: the server tells us).
      await sent;
      caller.abort();
      const err = await refusal(p);
      expect(err.code).toBe("network_error");
      expect(err.message).toMatch(/cancelled/);
      await closedByClient(stalled.at(-1) as net.Socket);
    },
    GUARD_MS,
  );

  it("a server that never answers (total timeout)", async () => {
    const err = await refusal(safeFetch(`${base()}/hang`, opts({ timeoutMs: 300 })));
    expect(err.code).toBe("timeout");
  });

  it("a TLS handshake that never completes (connect timeout)", async () => {
    const silent = net.createServer(() => {}); // accepts TCP, never speaks TLS
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const err = await refusal(
        safeFetch(`https://public.test:${port}/`, {
          ...opts(),
          allowHosts: [`public.test:${port}`],
          connectTimeoutMs: 200,
          timeoutMs: 10_000,
        }),
      );
      expect(err.code).toBe("timeout");
      expect(err.message).toContain("No connection");
    } finally {
      silent.close();
    }
  });

  it("a wrong content type", async () => {
    const err = await refusal(safeFetch(`${base()}/html`, opts({ accept: ["application/json"] })));
    expect(err.code).toBe("bad_content_type");
    expect(err.message).toContain("text/html");
  });

  it("non-http schemes", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/", "gopher://x/", "data:,hi"]) {
      const err = await refusal(safeFetch(url, opts()));
      expect(err.code).toBe("blocked_scheme");
    }
  });

  it("plain http in production, unless the host is explicitly allowed", async () => {
    const err = await refusal(safeFetch("http://example.com/", opts({ env: prodEnv })));
    expect(err.code).toBe("blocked_scheme");
    const res = await safeFetch(`${base()}/ok`, opts({ env: prodEnv }));
    expect(res.status).toBe(200);
  });

  it("URLs with credentials and malformed URLs", async () => {
    expect((await refusal(safeFetch(`http://u:p@public.test:${site.port}/ok`, opts()))).code).toBe(
      "invalid_url",
    );
    expect((await refusal(safeFetch("http://", opts()))).code).toBe("invalid_url");
  });

  it("nothing is exempt by default: FETCH_ALLOWED_HOSTS is empty", async () => {
    const err = await refusal(
      safeFetch(`http://127.0.0.1:${internal.port}/`, { env: parseEnv({}), timeoutMs: 2000 }),
    );
    expect(err.code).toBe("blocked_address");
    expect(internal.hits).toEqual([]);
  });

  it("an allowed host is exempt only on its own port", async () => {
    const err = await refusal(
      safeFetch(`http://public.test:${internal.port}/`, opts()), // same name, other port
    );
    expect(err.code).toBe("blocked_address");
    expect(internal.hits).toEqual([]);
  });
});

describe("safeFetch fetches", () => {
  it("JSON from an allowed host, with the pinned address", async () => {
    const res = await safeFetch(`${base()}/ok`, opts({ accept: ["application/json"] }));
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ hello: "world" });
    expect(res.address).toBe("127.0.0.1");
    expect(res.contentType).toBe("application/json");
  });

  it("the next checked address when one refuses the connection (::1 first, then 127.0.0.1)", async () => {
    const res = await safeFetch(`http://dual.test:${site.port}/ok`, {
      env: testEnv,
      allowHosts: [`dual.test:${site.port}`],
      resolve: resolverOf({ "dual.test": ["::1", "127.0.0.1"] }),
    });
    expect(res.address).toBe("127.0.0.1");
    expect(res.json()).toEqual({ hello: "world" });
  });

  it("a refused connection on every address is connect_failed", async () => {
    const err = await refusal(
      safeFetch("http://down.test:1/", {
        env: testEnv,
        allowHosts: ["down.test:1"],
        resolve: resolverOf({ "down.test": ["127.0.0.1"] }),
      }),
    );
    expect(err.code).toBe("connect_failed");
  });

  it("hosts allowed through FETCH_ALLOWED_HOSTS in the configuration", async () => {
    const e = parseEnv({ NODE_ENV: "production", FETCH_ALLOWED_HOSTS: `127.0.0.1:${site.port}` });
    const res = await safeFetch(`http://127.0.0.1:${site.port}/ok`, { env: e });
    expect(res.json()).toEqual({ hello: "world" });
  });

  it("a gzip body", async () => {
    const res = await safeFetch(`${base()}/gzip`, opts());
    expect(res.json()).toEqual({ zipped: true });
  });

  it("a redirect within the allowed host, recording the hops", async () => {
    const res = await safeFetch(`${base()}/redirect?to=/ok`, opts());
    expect(res.json()).toEqual({ hello: "world" });
    expect(res.redirects).toEqual([`${base()}/ok`]);
    expect(res.url).toBe(`${base()}/ok`);
  });

  it("a 404 is a response, not a refusal (content type is checked on success only)", async () => {
    const res = await safeFetch(`${base()}/gone`, opts({ accept: ["text/html"] }));
    expect(res.status).toBe(404);
  });

  it("POST with a body; redirects are not followed for POST by default", async () => {
    const res = await safeFetch(`${base()}/echo`, opts({ method: "POST", body: '{"a":1}' }));
    expect(res.json()).toEqual({ method: "POST", body: '{"a":1}' });
    const redirected = await safeFetch(
      `${base()}/redirect?to=/ok`,
      opts({ method: "POST", body: "x" }),
    );
    expect(redirected.status).toBe(302);
  });
});
