import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  assertKey,
  type ByteRange,
  type ObjectStorage,
  RangeNotSatisfiable,
  type RangeRequest,
  type StoredObject,
} from "./types";

/** A Range header value for S3 (which answers it as HTTP does: 206, or 416 past the end). */
const rangeHeader = (r: RangeRequest) =>
  "suffix" in r ? `bytes=-${r.suffix}` : `bytes=${r.start}-${r.end ?? ""}`;

/** `bytes 0-99/1234` → the range and the whole size. */
function parseContentRange(value: string | undefined): { range: ByteRange; size: number } | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value ?? "");
  if (!m) return null;
  return { range: { start: Number(m[1]), end: Number(m[2]) }, size: Number(m[3]) };
}

// A deployment's storage: an S3-compatible bucket (AWS S3, R2, MinIO, Backblaze…) through the
// AWS SDK's S3 client. The bucket stays private: objects are read back by the app and served
// through its own authorised route, never by a bucket URL handed to the browser.

export type S3Settings = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Omitted: the SDK's own credential chain (its AWS_* variables, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export class S3Storage implements ObjectStorage {
  readonly driver = "s3" as const;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle ?? false,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      maxAttempts: 3,
      // Checksums only where S3 requires one: a presigned PUT then names no checksum the
      // browser's bytes would have to match, and S3-compatible services that do not know the
      // newer checksum headers (some R2, MinIO and Backblaze versions) accept every call.
      requestChecksumCalculation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.byteLength,
      }),
    );
  }

  async get(key: string, range?: RangeRequest): Promise<StoredObject | null> {
    assertKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          ...(range ? { Range: rangeHeader(range) } : {}),
        }),
      );
      if (!out.Body) return null;
      const partial = range ? parseContentRange(out.ContentRange) : null;
      return {
        body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>,
        contentType: out.ContentType ?? "application/octet-stream",
        size: partial?.size ?? out.ContentLength ?? 0,
        // A range covering the whole object may come back as a plain 200: then it is all of it.
        ...(range
          ? { range: partial?.range ?? { start: 0, end: (out.ContentLength ?? 1) - 1 } }
          : {}),
      };
    } catch (err) {
      if (err instanceof NoSuchKey) return null;
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 416) {
        const head = await this.client.send(
          new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }),
        );
        throw new RangeNotSatisfiable(head.ContentLength ?? 0);
      }
      throw err;
    }
  }

  async presignPut(
    key: string,
    contentType: string,
    size: number,
    expiresIn: number,
  ): Promise<{ url: string; headers: Record<string, string> }> {
    assertKey(key);
    // Content-Type and Content-Length are signed: the bucket takes exactly this file's size
    // and declared type, or refuses the PUT. No checksum is asked for (the client computes
    // none for a presigned request: see requestChecksumCalculation in the constructor).
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: size,
      }),
      { expiresIn, signableHeaders: new Set(["content-type", "content-length"]) },
    );
    return { url, headers: { "Content-Type": contentType } };
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}
