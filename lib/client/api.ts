// The browser's fetch helper for our JSON API. Same-origin requests carry the session
// cookie; an error response becomes an ApiError with the envelope's code, message and
// details. Browser-safe: no server modules are imported here (type imports are erased).
import { errorEnvelope, readBody } from "@milestone/client";
import type { UserJson } from "@/lib/auth/users";

export type User = UserJson;
export type ProfileType = UserJson["profileType"];

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;

  constructor(code: string, message: string, status: number, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export type ApiFetchOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** Calls the API; resolves with the JSON body, or throws ApiError. */
export async function apiFetch<T>(path: string, opts: ApiFetchOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: "same-origin",
      cache: "no-store",
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError("network_error", "Could not reach the server. Check your connection.", 0);
  }
  const { json } = await readBody(res);
  if (!res.ok) {
    const error = errorEnvelope(json);
    if (error) throw new ApiError(error.code, error.message, res.status, error.details);
    throw new ApiError("http_error", `The server answered ${res.status}.`, res.status);
  }
  return json as T;
}

/** A sentence for the UI from anything a call may throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return "Something went wrong.";
}

/** Where each role's dashboard lives. */
export const dashboardPath = (profileType: ProfileType) =>
  profileType === "organization" ? "/brand" : "/creator";

export const roleLabel = (profileType: ProfileType) =>
  profileType === "organization" ? "Brand" : "Creator";
