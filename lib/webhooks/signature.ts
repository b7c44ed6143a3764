import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Webhook signatures, Stripe-style: `Milestone-Signature: t=<unix seconds>,v1=<hex>` where
// the hex is HMAC-SHA256, keyed with the endpoint's secret (the whole `whsec_…` string as
// UTF-8), of `${t}.${body}` — the exact bytes of the request body. The timestamp is signed
// too, so a captured request cannot be replayed later than the receiver's tolerance.

export const SIGNATURE_HEADER = "Milestone-Signature";
export const EVENT_ID_HEADER = "Milestone-Event-Id";

/** A new endpoint secret: shown once to its owner, used as the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * What a receiver does (the README shows the same code standalone): parse the header,
 * recompute the HMAC over `t.body`, compare in constant time, and refuse a timestamp
 * further than `toleranceSeconds` from now.
 */
export function verifySignature(
  header: string | null | undefined,
  body: string,
  secret: string,
  opts: { toleranceSeconds?: number; nowSeconds?: number } = {},
): VerifyResult {
  if (!header) return { ok: false, reason: "missing_header" };
  const parts = header.split(",").map((p) => p.trim().split("=", 2) as [string, string?]);
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  const candidates = parts.filter(([k, v]) => k === "v1" && v).map(([, v]) => v as string);
  if (!Number.isInteger(t) || candidates.length === 0) return { ok: false, reason: "malformed" };
  const now = opts.nowSeconds ?? Date.now() / 1000;
  if (Math.abs(now - t) > (opts.toleranceSeconds ?? 300)) return { ok: false, reason: "stale" };
  const expected = Buffer.from(
    createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"),
    "utf8",
  );
  const match = candidates.some((c) => {
    const given = Buffer.from(c, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { ok: true, timestamp: t } : { ok: false, reason: "mismatch" };
}
