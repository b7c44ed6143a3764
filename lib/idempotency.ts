import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  recordIdempotentResponse,
  releaseIdempotencyKey,
} from "@/db/queries/idempotency-keys";
import { AppError } from "@/lib/errors";
import { toErrorResponse } from "@/lib/http";

// `Idempotency-Key`: a retried request with the same key (per user) gets the first
// response back instead of running again. Only final answers are kept: a 5xx/502 means
// "retry is safe", so its key is released for the retry to run. Keys expire: an answer is
// replayed for 24 hours, and a request that crashed while running frees its key after 10
// minutes (db/queries/idempotency-keys.ts); each claim has its own id, so a request whose
// key was claimed anew meanwhile neither records over nor releases its successor's.

export const IDEMPOTENCY_HEADER = "idempotency-key";

export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get(IDEMPOTENCY_HEADER)?.trim();
  if (!key) return null;
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))
    throw new AppError(
      "invalid_request",
      "Idempotency-Key must be 1–200 printable ASCII characters.",
    );
  return key;
}

export async function withIdempotency(
  db: Db,
  p: { userId: string; key: string | null; route: string; request: unknown },
  run: () => Promise<Response>,
): Promise<Response> {
  if (!p.key) return run();
  const requestHash = createHash("sha256").update(JSON.stringify(p.request)).digest("hex");
  const key = { userId: p.userId, key: p.key };
  const claimed = await claimIdempotencyKey(db, { ...key, route: p.route, requestHash });
  if (!claimed) {
    const existing = await findIdempotencyKey(db, key);
    if (!existing) return run(); // released between our insert and select
    if (existing.route !== p.route || existing.requestHash !== requestHash)
      throw new AppError(
        "idempotency_key_reused",
        "This Idempotency-Key was used for a different request.",
      );
    if (existing.statusCode === null)
      throw new AppError(
        "settlement_in_progress",
        "A request with this Idempotency-Key is still running.",
      );
    return Response.json(existing.response, {
      status: existing.statusCode,
      headers: { "Idempotent-Replayed": "true" },
    });
  }
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    await releaseIdempotencyKey(db, key, claimed.claimId);
    throw err;
  }
  if (response.status >= 500) {
    await releaseIdempotencyKey(db, key, claimed.claimId);
    return response;
  }
  const body = await response.clone().json();
  await recordIdempotentResponse(db, key, claimed.claimId, {
    statusCode: response.status,
    response: body,
  });
  return response;
}

/**
 * A JSON endpoint made idempotent by the request's `Idempotency-Key`: `run`'s result answers
 * 200, an error answers in the contract's envelope (so a final refusal such as a 409 is kept
 * and replayed like a success), and a retry with the same key gets the first answer back.
 */
export function idempotentJson(
  db: Db,
  req: Request,
  p: { userId: string; route: string; request: unknown },
  run: () => Promise<unknown>,
  /** The status of a success (default 200; e.g. 202 for a payment still on its way). */
  statusOf: (result: unknown) => number = () => 200,
): Promise<Response> {
  return withIdempotency(db, { ...p, key: idempotencyKeyOf(req) }, async () => {
    try {
      const result = await run();
      return Response.json(result, { status: statusOf(result) });
    } catch (err) {
      return toErrorResponse(err, req);
    }
  });
}
