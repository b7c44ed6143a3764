import "server-only";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { type Env, env, fetchAllowedHosts, isProduction } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { blockedAddressReason } from "@/lib/net/ip";

// The check a webhook URL passes when it is registered or changed: the same outbound rules
// as every server-side fetch (lib/net/safe-fetch.ts, which checks again at each delivery,
// connecting only to the address it checked): https in production, no credentials in the
// URL, and a host that resolves only to public addresses, unless FETCH_ALLOWED_HOSTS exempts
// it (local test receivers).

export type HostResolver = (hostname: string) => Promise<string[]>;

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const refuse = (message: string) =>
  new AppError("invalid_request", message, {
    details: [{ path: ["url"], message, code: "unsafe_url" }],
  });

/** The normalised URL, or 400 invalid_request saying why it cannot be a webhook endpoint. */
export async function assertWebhookUrl(
  raw: string,
  opts: { env?: Env; resolve?: HostResolver } = {},
): Promise<string> {
  const e = opts.env ?? env();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("The URL is not valid.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw refuse("The URL must start with https://.");
  if (url.username || url.password) throw refuse("The URL must not contain credentials.");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const exempt = fetchAllowedHosts(e).includes(`${host}:${port}`.toLowerCase());
  if (url.protocol === "http:" && isProduction(e) && !exempt)
    throw refuse("The URL must use https.");
  if (!exempt) {
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = await (opts.resolve ?? systemResolver)(host);
      } catch {
        throw refuse(`${host} does not resolve.`);
      }
      if (addresses.length === 0) throw refuse(`${host} does not resolve.`);
    }
    for (const address of addresses) {
      const why = blockedAddressReason(address);
      if (!why) continue;
      // A literal address is the caller's own input; what a name resolved to is the server's
      // DNS answer, which a refusal must not reveal (it would map the internal network).
      if (isIP(host))
        throw refuse(`${host} is a ${why} address; webhooks go to public addresses only.`);
      throw refuse(`${host} is not allowed; webhooks go to public addresses only.`);
    }
  }
  url.hash = "";
  return url.toString();
}
