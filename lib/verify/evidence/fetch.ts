import { env } from "@/lib/env";
import { SafeFetchError, type SafeResponse, safeFetch } from "@/lib/net/safe-fetch";
import type { AdapterResult, EvidenceOptions } from "./types";

// Adapters read platforms only through the safe fetcher; this turns its refusals and the
// platform's status codes into evidence statuses a person understands.

const MAX_EVIDENCE_BYTES = 512 * 1024;
/** A post read's whole budget by default (the verifier lease counts on it). */
export const EVIDENCE_TIMEOUT_MS = 8_000;

export type Fetched = { ok: true; res: SafeResponse } | { ok: false; result: AdapterResult };

export async function fetchForEvidence(
  url: string,
  accept: string[],
  options: EvidenceOptions,
  extraAllowHosts: string[] = [],
): Promise<Fetched> {
  try {
    const res = await safeFetch(url, {
      accept,
      maxBytes: MAX_EVIDENCE_BYTES,
      timeoutMs: options.timeoutMs ?? EVIDENCE_TIMEOUT_MS,
      connectTimeoutMs: 4_000,
      env: options.env ?? env(),
      allowHosts: [...(options.allowHosts ?? []), ...extraAllowHosts],
      resolve: options.resolve,
      headers: { accept: accept.join(", ") },
    });
    if (res.status === 404 || res.status === 410)
      return {
        ok: false,
        result: {
          status: "deleted",
          error: "The post was not found: it was deleted or never existed.",
        },
      };
    if (res.status === 401 || res.status === 403)
      return {
        ok: false,
        result: {
          status: "unreachable",
          error: `The platform refused to show the post (HTTP ${res.status}): it is private or restricted.`,
        },
      };
    if (res.status < 200 || res.status >= 300)
      return {
        ok: false,
        result: { status: "unreachable", error: `The platform answered HTTP ${res.status}.` },
      };
    return { ok: true, res };
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    const blocked =
      err.code === "blocked_address" || err.code === "blocked_scheme" || err.code === "invalid_url";
    return {
      ok: false,
      result: {
        status: blocked ? "blocked" : "unreachable",
        error: `The post could not be fetched: ${err.message}`,
      },
    };
  }
}

/** The JSON body of a fetched response, or an unreachable result when it is not JSON. */
export function jsonOf(res: SafeResponse): Record<string, unknown> | undefined {
  try {
    const v = res.json();
    return v && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const str = (v: unknown): string | null =>
  typeof v === "string" && v.trim() ? v.trim() : null;
