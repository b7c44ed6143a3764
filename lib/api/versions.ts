import { AppError } from "@/lib/errors";

// Dated API versions, Stripe-style. A request is answered in the version it sends as
// `Milestone-Version: YYYY-MM-DD`; without the header, an API key's requests in the version
// pinned on the key (the current one when it was created), everything else in the current
// one. Handlers always build the current shape; an older version's shape is made from it
// by the transforms below, newest first (route() in lib/http.ts applies them). Every answer
// says which version it is in (`Milestone-Version`). The changelog in /docs reads this list.
// A version is a change that could break a client. Additions a client can ignore are not:
// a new response field (a verdict's `confidence`, a deal's `autoSettleConfidence`) or a new
// optional request field with a default is in every version, and no transform removes it.

export const VERSION_HEADER = "Milestone-Version";

export type ApiVersion = {
  date: string;
  summary: string;
  changes: string[];
  /** Turns an answer of this version into the one before it (the oldest has none). */
  down?: (body: unknown) => unknown;
};

/** Removes `metadata` from every object that has an `id` (the resources that gained it). */
function withoutMetadata(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutMetadata);
  if (!body || typeof body !== "object") return body;
  const out: Record<string, unknown> = {};
  const isResource = typeof (body as { id?: unknown }).id === "string";
  for (const [k, v] of Object.entries(body)) {
    if (k === "metadata" && isResource) continue;
    out[k] = withoutMetadata(v);
  }
  return out;
}

/** Newest first. */
export const API_VERSIONS: readonly ApiVersion[] = [
  {
    date: "2026-11-24",
    summary: "Request ids, metadata, events as a resource, test webhooks.",
    changes: [
      "Deals, milestones, webhook endpoints and API keys take and return `metadata` (up to 20 string pairs); `GET /api/deals?metadata=key:value` finds deals by one pair.",
      "`GET /api/events`: every event you may see, with the object's snapshot (`data.object`) and, for changes, `data.previous_attributes`; webhook bodies are the same event object.",
      "`POST /api/webhooks/:id/test` sends a test event through the real signing and retry path; deliveries show the request body and the receiver's status, headers and body.",
      "Every response carries `Request-Id`; the error envelope repeats it as `error.requestId`.",
      "`POST /api/milestones/:id/request-changes { message }`: the brand sends a submission back without a verdict; milestones carry `changeRequest` (and `history.changeRequests`), and the `milestone.changes_requested` event tells the creator. Additive: every version gets it.",
      "`POST /api/deals/:id/bonuses { amount, message }`, `GET /api/deals/:id/bonuses[/:bonusId]` and `POST /api/deals/:id/bonuses/:bonusId/release`: after a paid milestone the brand sends a bonus, funded like a deal under the bonus's id and released through the escrow; `bonus.funded` and `bonus.paid` events. Additive: every version gets it.",
      "`GET/POST /api/deals/:id/messages` and `POST /api/deals/:id/messages/read`: a plain-text thread between a deal's brand and creator (a message may carry one image or video, sent as multipart), with an unread count per party; `message.created` events. Additive: every version gets it.",
    ],
    down: withoutMetadata,
  },
  {
    date: "2026-06-01",
    summary: "The API as it was before dated versions.",
    changes: ["Objects carry no `metadata`."],
  },
];

export const CURRENT_API_VERSION = API_VERSIONS[0]?.date as string;
const known = new Set(API_VERSIONS.map((v) => v.date));

export const isApiVersion = (v: string) => known.has(v);

/** The version a request asks for in its header; 400 for one that does not exist. */
export function requestedVersion(req: Request): string | undefined {
  const asked = req.headers.get(VERSION_HEADER)?.trim();
  if (!asked) return undefined;
  if (!known.has(asked))
    throw new AppError(
      "invalid_request",
      `Unknown ${VERSION_HEADER} "${asked.slice(0, 40)}". Versions: ${[...known].join(", ")}.`,
      {
        details: [{ path: [VERSION_HEADER], message: "unknown version", code: "unknown_version" }],
      },
    );
  return asked;
}

/** An answer built in the current version, in `version`'s shape. */
export function bodyInVersion(body: unknown, version: string): unknown {
  let out = body;
  for (const v of API_VERSIONS) {
    if (v.date <= version) break;
    out = v.down ? v.down(out) : out;
  }
  return out;
}

// The version pinned on the API key that authenticated a request (lib/auth/caller.ts sets it).
const pinned = new WeakMap<Request, string>();

export function pinVersion(req: Request, version: string): void {
  if (known.has(version)) pinned.set(req, version);
}

/** The version a request is answered in: its header, else its key's pin, else the current one. */
export function versionOf(req: Request): string {
  return requestedVersion(req) ?? pinned.get(req) ?? CURRENT_API_VERSION;
}

/**
 * The response in the request's version, saying which one it is. A JSON answer of an older
 * version is rebuilt through the transforms; anything else is left as it is.
 */
export async function inRequestedVersion(req: Request, res: Response): Promise<Response> {
  const version = versionOf(req);
  const type = res.headers.get("content-type") ?? "";
  if (version !== CURRENT_API_VERSION && type.includes("application/json") && res.body) {
    const body = bodyInVersion(await res.json(), version);
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    res = new Response(JSON.stringify(body), { status: res.status, headers });
  }
  try {
    res.headers.set(VERSION_HEADER, version);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set(VERSION_HEADER, version);
    return copy;
  }
}
