// One interface for stored uploads (draft media, message attachments): a local directory in
// the embedded setup, an S3-compatible bucket in a deployment (lib/storage/index.ts picks).
// Objects are private: nothing here makes a public URL. People reach an object only through
// an app route that checks they are a party to what it belongs to, then streams it
// (lib/storage/serve.ts).

export type StoredObject = {
  /** The bytes asked for: the whole object, or only `range` when one was asked for. */
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** The whole object's size, also when `body` holds only a range of it. */
  size: number;
  /** The bytes `body` holds (inclusive), when a range was asked for and could be served. */
  range?: ByteRange;
};

/**
 * A byte range as an HTTP `Range: bytes=…` header asks for one: from `start` to `end`
 * (inclusive; to the last byte when absent), or the last `suffix` bytes. Video players (Safari
 * always) fetch media in ranges; an object storage answers the same request natively.
 */
export type RangeRequest = { start: number; end?: number } | { suffix: number };

/** Inclusive byte positions. */
export type ByteRange = { start: number; end: number };

/** Thrown by `get` when the range lies wholly past the end of the object (HTTP 416). */
export class RangeNotSatisfiable extends Error {
  constructor(readonly size: number) {
    super(`range not satisfiable for an object of ${size} bytes`);
  }
}

/** The range's bytes in an object of `size` bytes; throws RangeNotSatisfiable when there are none. */
export function resolveRange(range: RangeRequest, size: number): ByteRange {
  if ("suffix" in range) {
    if (range.suffix <= 0 || size === 0) throw new RangeNotSatisfiable(size);
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size) throw new RangeNotSatisfiable(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

export interface ObjectStorage {
  /** Which implementation: "local" or "s3". */
  readonly driver: "local" | "s3";
  /** Stores `bytes` under `key`, replacing any object there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * The object as a stream, or null when there is none under `key`. With `range`, only those
   * bytes (`range` on the answer says which); RangeNotSatisfiable when none of them exist.
   */
  get(key: string, range?: RangeRequest): Promise<StoredObject | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A URL the browser may PUT exactly `size` bytes of `contentType` to under `key`, for
   * `expiresIn` seconds, without the bytes passing through the app (lib/storage/direct.ts).
   * Only a bucket has one; the local directory is reached through the app's own form upload.
   */
  presignPut?(
    key: string,
    contentType: string,
    size: number,
    expiresIn: number,
  ): Promise<{ url: string; headers: Record<string, string> }>;
}

// Keys are made by the app (lib/storage/keys), never taken from a request; this check is the
// backstop that keeps a key inside the local directory and a plain S3 key.
const KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)*$/i;

export function assertKey(key: string): void {
  if (!KEY.test(key) || key.length > 512 || key.includes(".."))
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}
