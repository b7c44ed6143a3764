// Links to card on-ramps ("Buy USDC with a card") and bank off-ramps ("Cash out to a bank"),
// built from a URL template in configuration (ONRAMP_URL, OFFRAMP_URL in lib/env.ts). The
// services themselves (Coinbase Onramp, Stripe's crypto onramp, an exchange's off-ramp…) are
// external: nothing here calls them, and no test can say they accept what we fill in.
//
// Pure: the caller passes the template it read from env() on the server. Placeholders,
// each replaced by its URL-encoded value (an absent one by the empty string):
//   {address}  the wallet the money goes to (on-ramp) or comes from (off-ramp)
//   {amount}   a decimal USDC amount, e.g. "25.5"
//   {network}  the network's name as this app calls it (CHAIN: base, base-sepolia…)
//   {token}    the token's symbol: USDC
// Example: ONRAMP_URL="https://pay.example.com/buy?address={address}&amount={amount}&network={network}"

export type RampParams = {
  address: string;
  /** A decimal amount of USDC; omitted → the placeholder is left empty. */
  amount?: string | null;
  network: string;
  token?: string;
};

const PLACEHOLDER = /\{(address|amount|network|token)\}/g;

/**
 * The template with its placeholders filled in, or null when there is no template or the
 * result is not an absolute http(s) URL (a template typed wrong shows no link rather than
 * a broken one).
 */
export function rampUrl(template: string | null | undefined, p: RampParams): string | null {
  if (!template) return null;
  const values: Record<string, string> = {
    address: p.address,
    amount: p.amount ?? "",
    network: p.network,
    token: p.token ?? "USDC",
  };
  const filled = template.replace(PLACEHOLDER, (_, name: string) =>
    encodeURIComponent(values[name] ?? ""),
  );
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return url.toString();
}

/** "Buy USDC with a card": the on-ramp link to `address` (ONRAMP_URL), or null. */
export function onrampUrl(template: string | null | undefined, p: RampParams): string | null {
  return rampUrl(template, p);
}

/** "Cash out to a bank": the off-ramp link from `address` (OFFRAMP_URL), or null. */
export function offrampUrl(template: string | null | undefined, p: RampParams): string | null {
  return rampUrl(template, p);
}
