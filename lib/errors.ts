import { z } from "zod";

// One error class for everything a caller can be told about. Its code decides the
// status (the contract's table); anything that is not an AppError is a 500 `internal`.

const statusByCode = {
  invalid_json: 400,
  invalid_request: 400,
  unauthenticated: 401,
  invalid_token: 401,
  invalid_passphrase: 401,
  invalid_signature: 401,
  forbidden: 403,
  csrf_rejected: 403,
  insufficient_scope: 403,
  wrong_role: 403,
  faucet_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  no_deliverable: 409,
  already_settled: 409,
  settlement_in_progress: 409,
  invalid_state: 409,
  wallet_taken: 409,
  /** A new way of signing in whose e-mail another account holds: sign in, then link it. */
  account_exists: 409,
  /** Linking a way of signing in that already belongs to another account. */
  identity_in_use: 409,
  wallet_required: 409,
  budget_exceeded: 409,
  not_funded: 409,
  already_decided: 409,
  appeal_exists: 409,
  /** The brand asked for changes to this revision: nothing to settle until the next one. */
  changes_requested: 409,
  /** Changes were already requested on this revision (one request per revision). */
  changes_already_requested: 409,
  review_window_open: 409,
  /** The verdict's confidence is below the auto-settle threshold: the brand decides. */
  needs_decision: 409,
  deal_not_editable: 409,
  terms_locked: 409,
  terms_changed: 409,
  /** The post is already the evidence of another milestone (one post, one payment). */
  evidence_already_used: 409,
  handle_unverified: 409,
  /** A funding of the deal is in flight (it holds the deal): a cancel waits for its outcome. */
  funding_in_progress: 409,
  /** More than the wallet holds (after what is already on its way out). */
  insufficient_funds: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  verifier_unavailable: 502,
  chain_unavailable: 502,
  relay_unavailable: 502,
  not_configured: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof statusByCode;

const errorCodes = Object.keys(statusByCode) as [ErrorCode, ...ErrorCode[]];

/** The contract's error envelope: what every error answer is, documented as `Error`. */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      details: z.unknown().optional(),
      requestId: z
        .string()
        .optional()
        .describe("The request's id, as in its Request-Id header: quote it when reporting"),
    }),
  })
  .meta({ id: "Error", description: "The contract's error envelope" });
export type ErrorBody = z.infer<typeof errorEnvelopeSchema>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: unknown; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = statusByCode[code];
    this.details = options.details;
    this.headers = options.headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message } };
    if (this.details !== undefined) body.error.details = this.details;
    return body;
  }
}

export function statusOf(code: ErrorCode): number {
  return statusByCode[code];
}

export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found.`);

export const forbidden = (message = "You are not allowed to do this.") =>
  new AppError("forbidden", message);

export function errorResponse(error: AppError, requestId?: string): Response {
  const body = error.toBody();
  if (requestId) body.error.requestId = requestId;
  return Response.json(body, { status: error.status, headers: error.headers });
}

export const internalErrorBody: ErrorBody = {
  error: { code: "internal", message: "Something went wrong on our side. Please try again." },
};
