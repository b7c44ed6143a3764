// One interface for stored uploads (draft media, message attachments): a local directory in
// the embedded setup, an S3-compatible bucket in a deployment (lib/storage/index.ts picks).
// Objects are private: nothing here makes a public URL. People reach an object only through
// an app route that checks they are a party to what it belongs to, then streams it
// (lib/storage/serve.ts).

export type StoredObject = {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
};

export interface ObjectStorage {
  /** Which implementation: "local" or "s3". */
  readonly driver: "local" | "s3";
  /** Stores `bytes` under `key`, replacing any object there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is none under `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
}

// Keys are made by the app (lib/storage/keys), never taken from a request; this check is the
// backstop that keeps a key inside the local directory and a plain S3 key.
const KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)*$/i;

export function assertKey(key: string): void {
  if (!KEY.test(key) || key.length > 512 || key.includes(".."))
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}
