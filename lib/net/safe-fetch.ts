import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { type Env, env, fetchAllowedHosts, isProduction } from "@/lib/env";
import { log } from "@/lib/log";
import { inSpan } from "@/lib/telemetry";
import { blockedAddressReason } from "./ip";

// The one way the server reaches a URL a user gave it (evidence posts, webhook endpoints):
// every address the name resolves to is checked (private, loopback, link-local, multicast,
// metadata ranges), the connection goes to the checked address (no second DNS answer can
// swap it: DNS rebinding), each redirect is checked again, and time, size and content type
// are bounded. A refusal is a SafeFetchError whose code says why. One deadline covers the
// whole exchange (DNS, connect, headers, body and its decompression): whatever the server
// does, the promise settles by then and the socket is destroyed.

export type SafeFetchErrorCode =
  | "invalid_url"
  | "blocked_scheme"
  | "blocked_address"
  | "dns_failed"
  | "connect_failed"
  | "timeout"
  | "too_large"
  | "bad_content_type"
  | "too_many_redirects"
  | "network_error";

export class SafeFetchError extends Error {
  readonly code: SafeFetchErrorCode;
  readonly url: string;
  constructor(code: SafeFetchErrorCode, message: string, url: string, cause?: unknown) {
    super(message, { cause });
    this.name = "SafeFetchError";
    this.code = code;
    this.url = url;
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to all its addresses (tests inject one; default: the OS resolver). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type SafeFetchOptions = {
  method?: "GET" | "HEAD" | "POST" | "PUT";
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Largest body accepted, after decompression (default 1 MiB). */
  maxBytes?: number;
  /** Time to get a TCP (and TLS) connection to one address (default 5 s). */
  connectTimeoutMs?: number;
  /** Time for the whole exchange: DNS, connect, redirects, body and decompression (default 10 s). */
  timeoutMs?: number;
  /** Redirects followed (default 3 for GET/HEAD; other methods get the 3xx response back). */
  maxRedirects?: number;
  /** Media types a 2xx response may have, e.g. ["application/json"]; "text/*" matches a family. */
  accept?: string[];
  signal?: AbortSignal;
  /** Extra `host:port` exempt from the address check (the app's own origin for the sandbox). */
  allowHosts?: string[];
  resolve?: Resolver;
  /** The configuration to read the policy from (default: this process's). */
  env?: Env;
};

export type SafeResponse = {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The media type without parameters, lower case (e.g. "application/json"). */
  contentType: string | undefined;
  body: Buffer;
  /** The IP address the answer came from. */
  address: string;
  redirects: string[];
  text(): string;
  json(): unknown;
};

const defaultResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const defaultPort = (u: URL) => u.port || (u.protocol === "https:" ? "443" : "80");
const hostKey = (u: URL) => `${bareHost(u)}:${defaultPort(u)}`.toLowerCase();
const bareHost = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, "$1");

/** Fetch a URL under the outbound policy; throws SafeFetchError when refused. */
export function safeFetch(input: string, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  // A span per outbound fetch (lib/telemetry.ts): the host only (a webhook URL may carry a
  // secret in its path or query).
  let host = "invalid";
  try {
    host = new URL(input).hostname;
  } catch {
    // refused below, with the reason
  }
  return inSpan(`fetch ${host}`, { "server.address": host }, async (span) => {
    const res = await safeFetchOnce(input, options);
    span.setAttribute("http.response.status_code", res.status);
    return res;
  });
}

async function safeFetchOnce(input: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A referenced timer (AbortSignal.timeout's is not): the deadline fires even when nothing
  // else keeps the process running, and it is cleared as soon as the fetch settles.
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException("The request timed out.", "TimeoutError")),
    Math.min(Math.max(timeoutMs, 0), 2_147_483_647),
  );
  const signal = options.signal
    ? AbortSignal.any([deadline.signal, options.signal])
    : deadline.signal;
  const at = { href: input };
  try {
    // The race is the guarantee: whatever a stream does or fails to do, the deadline ends the
    // fetch; the same signal destroys the request, its socket and the decompressor.
    return await raceAbort(
      fetchFollowing(input, options, signal, timeoutMs, at),
      signal,
      () => at.href,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The fetch itself, following redirects; `at` tracks the URL being fetched for errors. */
async function fetchFollowing(
  input: string,
  options: SafeFetchOptions,
  signal: AbortSignal,
  timeoutMs: number,
  at: { href: string },
): Promise<SafeResponse> {
  const e = options.env ?? env();
  const allowed = new Set([
    ...fetchAllowedHosts(e),
    ...(options.allowHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  const method = options.method ?? "GET";
  const maxRedirects = options.maxRedirects ?? (method === "GET" || method === "HEAD" ? 3 : 0);
  let url = parseUrl(input);
  const redirects: string[] = [];
  let current = { method, body: options.body };
  for (;;) {
    at.href = url.href;
    const targets = await checkTarget(url, allowed, e, options.resolve ?? defaultResolver, signal);
    const { res, target } = await exchangeAny(url, targets, current, options, signal, timeoutMs);
    const location = res.headers.location;
    if (
      res.statusCode &&
      res.statusCode >= 300 &&
      res.statusCode < 400 &&
      location &&
      maxRedirects > 0
    ) {
      res.destroy();
      if (redirects.length >= maxRedirects)
        throw new SafeFetchError(
          "too_many_redirects",
          `More than ${maxRedirects} redirects.`,
          url.href,
        );
      const next = parseUrl(location, url);
      redirects.push(next.href);
      // 303 (and 301/302 after a POST, as browsers do) continue as a GET without a body.
      if (
        res.statusCode === 303 ||
        ((res.statusCode === 301 || res.statusCode === 302) && current.method === "POST")
      )
        current = { method: "GET", body: undefined };
      url = next;
      continue;
    }
    return await readResponse(res, url, target.address, redirects, options, signal);
  }
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new SafeFetchError("invalid_url", "Not a valid URL.", text);
  }
  if (url.username || url.password)
    throw new SafeFetchError("invalid_url", "URLs with credentials are not fetched.", url.href);
  return url;
}

async function checkTarget(
  url: URL,
  allowed: Set<string>,
  e: Env,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const exempt = allowed.has(hostKey(url));
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new SafeFetchError("blocked_scheme", `Scheme ${url.protocol} is not fetched.`, url.href);
  if (url.protocol === "http:" && isProduction(e) && !exempt)
    throw new SafeFetchError("blocked_scheme", "Only https URLs are fetched.", url.href);

  const host = bareHost(url);
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await raceAbort(resolve(host), signal, () => url.href);
    } catch (err) {
      if (err instanceof SafeFetchError) throw err;
      throw new SafeFetchError("dns_failed", `Could not resolve ${host}.`, url.href, err);
    }
    if (!addresses.length)
      throw new SafeFetchError("dns_failed", `${host} has no address.`, url.href);
  }
  if (!exempt) {
    for (const a of addresses) {
      const why = blockedAddressReason(a.address);
      if (why) {
        // What the name resolved to stays in the server's log: the caller learns only that
        // the address is not allowed (no DNS answers or network layout echoed back).
        log.info("safe fetch: address not allowed", { host, address: a.address, reason: why });
        throw new SafeFetchError(
          "blocked_address",
          `The address of ${host} is not allowed; not fetched.`,
          url.href,
        );
      }
    }
  }
  return addresses;
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal, href: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal, href()));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function abortError(signal: AbortSignal, href: string): SafeFetchError {
  const reason = signal.reason as { name?: string } | undefined;
  if (reason?.name === "TimeoutError")
    return new SafeFetchError("timeout", "The request timed out.", href);
  return new SafeFetchError("network_error", "The request was cancelled.", href, signal.reason);
}

/**
 * Tries the checked addresses in order (e.g. "localhost" → ::1 then 127.0.0.1) until one
 * accepts the connection; only a refused or unreachable connection moves on to the next.
 */
async function exchangeAny(
  url: URL,
  targets: ResolvedAddress[],
  current: { method: string; body: string | Uint8Array | undefined },
  options: SafeFetchOptions,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ res: IncomingMessage; target: ResolvedAddress }> {
  let lastError: unknown;
  for (const target of targets) {
    try {
      return { res: await exchange(url, target, current, options, signal, timeoutMs), target };
    } catch (err) {
      if (!(err instanceof SafeFetchError) || err.code !== "connect_failed") throw err;
      lastError = err;
    }
  }
  throw lastError;
}

/** Sends one request to one checked address (the socket never asks DNS again). */
function exchange(
  url: URL,
  target: ResolvedAddress,
  current: { method: string; body: string | Uint8Array | undefined },
  options: SafeFetchOptions,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<IncomingMessage> {
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  const headers: Record<string, string> = {
    "user-agent": "MilestoneBot/1.0 (+verification)",
    "accept-encoding": "gzip, deflate, br",
    ...options.headers,
  };
  if (current.body !== undefined)
    headers["content-length"] = String(Buffer.byteLength(current.body));
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 5_000, timeoutMs);

  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal, url.href));
    const req = (url.protocol === "https:" ? https : http).request(url, {
      method: current.method,
      headers,
      lookup: pinned,
      agent: false,
      signal,
    });
    const connectTimer = setTimeout(() => {
      req.destroy(
        new SafeFetchError("timeout", `No connection within ${connectTimeoutMs} ms.`, url.href),
      );
    }, connectTimeoutMs);
    req.once("socket", (socket) => {
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () =>
        clearTimeout(connectTimer),
      );
    });
    req.once("response", (res) => {
      clearTimeout(connectTimer);
      resolve(res);
    });
    req.once("error", (err) => {
      clearTimeout(connectTimer);
      if (err instanceof SafeFetchError) return reject(err);
      if (signal.aborted) return reject(abortError(signal, url.href));
      const code = (err as NodeJS.ErrnoException).code ?? "";
      // Failures before any byte was sent: another address may be tried. A reset after
      // connecting is a network error (the request may have arrived; never send it twice).
      const connectCodes = [
        "ECONNREFUSED",
        "EHOSTUNREACH",
        "ENETUNREACH",
        "EADDRNOTAVAIL",
        "ETIMEDOUT",
      ];
      reject(
        new SafeFetchError(
          connectCodes.includes(code) ? "connect_failed" : "network_error",
          `Could not reach ${url.host}: ${code || err.message}.`,
          url.href,
          err,
        ),
      );
    });
    req.end(current.body);
  });
}

function mediaTypeOf(header: string | undefined): string | undefined {
  const t = header?.split(";")[0]?.trim().toLowerCase();
  return t || undefined;
}

function accepts(accept: string[], type: string | undefined): boolean {
  if (!type) return false;
  return accept.some((a) => {
    const want = a.toLowerCase();
    return want.endsWith("/*") ? type.startsWith(want.slice(0, -1)) : type === want;
  });
}

async function readResponse(
  res: IncomingMessage,
  url: URL,
  address: string,
  redirects: string[],
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<SafeResponse> {
  const status = res.statusCode ?? 0;
  const contentType = mediaTypeOf(res.headers["content-type"]);
  const ok = status >= 200 && status < 300;
  if (ok && options.accept && !accepts(options.accept, contentType)) {
    res.destroy();
    throw new SafeFetchError(
      "bad_content_type",
      `Expected ${options.accept.join(" or ")}, got ${contentType ?? "no content type"}.`,
      url.href,
    );
  }
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const declared = Number(res.headers["content-length"]);
  const encoding = (res.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "identity" && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new SafeFetchError(
      "too_large",
      `The response is larger than ${maxBytes} bytes.`,
      url.href,
    );
  }
  const body = await readCapped(res, encoding, maxBytes, url, signal);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  return {
    url: url.href,
    status,
    headers,
    contentType,
    body,
    address,
    redirects,
    text: () => body.toString("utf8"),
    json: () => JSON.parse(body.toString("utf8")),
  };
}

function decoderFor(encoding: string) {
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.createGunzip();
  if (encoding === "deflate") return zlib.createInflate();
  if (encoding === "br") return zlib.createBrotliDecompress();
  return undefined;
}

/**
 * Reads the body (decompressed) and gives up as soon as it passes maxBytes. `pipeline` carries
 * an error or an early end of any stage (the socket closing mid-body, a corrupt stream) and the
 * abort to every other stage and destroys them all (`pipe` carried neither: a stalled or cut
 * compressed body left the decompressor waiting for ever).
 */
async function readCapped(
  res: IncomingMessage,
  encoding: string,
  maxBytes: number,
  url: URL,
  signal: AbortSignal,
): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  if (!decoder && encoding !== "identity") {
    res.destroy();
    throw new SafeFetchError(
      "network_error",
      `Unsupported content encoding ${encoding}.`,
      url.href,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Kept aside: when the last stage throws, Node 20's pipeline rejects with an AbortError.
  let tooLarge: SafeFetchError | undefined;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = new SafeFetchError(
          "too_large",
          `The response is larger than ${maxBytes} bytes.`,
          url.href,
        );
        throw tooLarge;
      }
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(res, decoder, collect, { signal });
    else await pipeline(res, collect, { signal });
  } catch (err) {
    if (tooLarge) throw tooLarge;
    if (signal.aborted) throw abortError(signal, url.href);
    throw new SafeFetchError(
      "network_error",
      // Every byte arrived: the decompressor refused them; otherwise the body was cut short.
      res.complete ? "The response could not be decoded." : "The response was cut off.",
      url.href,
      err,
    );
  } finally {
    res.destroy();
    decoder?.destroy();
  }
  return Buffer.concat(chunks);
}
