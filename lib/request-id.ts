import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// Every API response carries `Request-Id`, and so does every log line written while the
// request is handled (lib/log.ts reads it from here), and the error envelope (`requestId`):
// a caller quoting it finds the request in the logs. route() (lib/http.ts) opens the scope.
// An incoming `X-Request-Id` is taken only when TRUSTED_PROXY says a proxy of ours sits in
// front (it sets or passes on the id it logged); otherwise a client could plant ids in
// our logs, so a fresh one is made.

export const REQUEST_ID_HEADER = "Request-Id";
export const INCOMING_REQUEST_ID_HEADER = "X-Request-Id";

/** What a proxy's id may look like: short, and nothing that needs escaping anywhere. */
const acceptableId = /^[A-Za-z0-9._:@+=/-]{8,128}$/;

export const newRequestId = () => `req_${randomBytes(12).toString("base64url")}`;

/** The id of this request: a trusted proxy's X-Request-Id, else a new one. */
export function requestIdOf(req: Request, trustedHops = env().TRUSTED_PROXY): string {
  if (trustedHops > 0) {
    const given = req.headers.get(INCOMING_REQUEST_ID_HEADER)?.trim();
    if (given && acceptableId.test(given)) return given;
  }
  return newRequestId();
}

const scope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` with `requestId` as the current request's id (for the logs). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

/** The id of the request being handled, when there is one. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}
