import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseEnv, productionProblems, resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { storageFromEnv } from "@/lib/storage";
import { claimUpload } from "@/lib/storage/direct";
import { FORM_OVERHEAD, readUploadForm } from "@/lib/storage/form";
import { LocalStorage } from "@/lib/storage/local";
import { S3Storage } from "@/lib/storage/s3";
import { requestedRange } from "@/lib/storage/serve";
import { type ObjectStorage, RangeNotSatisfiable, type RangeRequest } from "@/lib/storage/types";
import { checkUpload, prepareUpload, sniffType } from "@/lib/storage/uploads";
import { type FakeS3, startFakeS3 } from "../helpers/fake-s3";
import {
  jpegSegments,
  jpegWithMetadata,
  mp4WithMetadata,
  pngChunks,
  pngWithMetadata,
  SECRET,
  webpChunks,
  webpWithMetadata,
} from "../helpers/media";

// The storage interface (lib/storage): both implementations behind one contract — the local
// directory and the S3 client, the latter against a local fake S3 server (test/helpers/fake-s3:
// the S3 calls it makes, answered with S3's response shapes; no MinIO or real bucket here) —
// and the upload checks: real type from the bytes, size limits, metadata stripped.

const text = async (s: ReadableStream<Uint8Array>) =>
  Buffer.from(await new Response(s).arrayBuffer());

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

function contract(name: string, make: () => ObjectStorage) {
  describe(`${name} storage`, () => {
    it("puts, gets (a stream with its type and size) and deletes an object", async () => {
      const s = make();
      const bytes = Buffer.from("\x89PNG fake bytes for the round trip");
      await s.put("drafts/d1/m1/a.png", bytes, "image/png");
      const got = await s.get("drafts/d1/m1/a.png");
      expect(got?.contentType).toBe("image/png");
      expect(got?.size).toBe(bytes.length);
      expect(await text(got?.body as ReadableStream<Uint8Array>)).toEqual(bytes);
      await s.put("drafts/d1/m1/a.png", Buffer.from("replaced"), "image/jpeg");
      const again = await s.get("drafts/d1/m1/a.png");
      expect(again?.contentType).toBe("image/jpeg");
      expect((await text(again?.body as ReadableStream<Uint8Array>)).toString()).toBe("replaced");
      await s.delete("drafts/d1/m1/a.png");
      expect(await s.get("drafts/d1/m1/a.png")).toBeNull();
      await s.delete("drafts/d1/m1/a.png"); // gone already: not an error
    });

    it("serves byte ranges: from-to, open-ended, suffix, clipped at the end, and refuses one past it", async () => {
      const s = make();
      const bytes = Buffer.from("0123456789abcdefghij"); // 20 bytes
      await s.put("drafts/d1/m1/clip.mp4", bytes, "video/mp4");
      const cases: [RangeRequest, { start: number; end: number }][] = [
        [
          { start: 0, end: 1 },
          { start: 0, end: 1 },
        ], // what Safari asks first
        [
          { start: 5, end: 9 },
          { start: 5, end: 9 },
        ],
        [{ start: 15 }, { start: 15, end: 19 }],
        [{ suffix: 4 }, { start: 16, end: 19 }],
        [
          { start: 10, end: 500 },
          { start: 10, end: 19 },
        ],
        [{ suffix: 500 }, { start: 0, end: 19 }],
      ];
      for (const [asked, served] of cases) {
        const got = await s.get("drafts/d1/m1/clip.mp4", asked);
        expect(got?.range, JSON.stringify(asked)).toEqual(served);
        expect(got?.size).toBe(20);
        expect((await text(got?.body as ReadableStream<Uint8Array>)).toString()).toBe(
          bytes.subarray(served.start, served.end + 1).toString(),
        );
      }
      const past = await s.get("drafts/d1/m1/clip.mp4", { start: 20 }).catch((e: unknown) => e);
      expect(past).toBeInstanceOf(RangeNotSatisfiable);
      expect((past as RangeNotSatisfiable).size).toBe(20);
      expect(await s.get("drafts/none/clip.mp4", { start: 0, end: 1 })).toBeNull();
    });

    it("answers null for a key never stored, and refuses keys that could escape", async () => {
      const s = make();
      expect(await s.get("drafts/none/here.jpg")).toBeNull();
      for (const bad of ["../etc/passwd", "/abs", "a/../../b", "a//b", ""])
        await expect(s.put(bad, Buffer.from("x"), "text/plain")).rejects.toThrow(/storage key/);
    });
  });
}

let dir: string;
let fake: FakeS3;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "milestone-storage-"));
  fake = await startFakeS3({ bucket: "uploads", accessKeyId: "AKIAFAKE" });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await fake.close();
});
afterEach(() => {
  delete process.env.UPLOAD_MAX_IMAGE_BYTES;
  delete process.env.UPLOAD_MAX_VIDEO_BYTES;
  resetEnvCache();
});

contract("local", () => new LocalStorage(dir));
const s3 = () =>
  new S3Storage({
    bucket: "uploads",
    region: "us-east-1",
    endpoint: fake.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "AKIAFAKE", secretAccessKey: "secret" },
  });
contract("S3 (fake S3 server)", s3);

describe("the S3 implementation on the wire", () => {
  it("signs each call (SigV4), addresses the bucket by path and stores the bytes with their type", async () => {
    const before = fake.requests.length;
    await s3().put("attachments/x/y.jpg", Buffer.from("jpeg bytes"), "image/jpeg");
    const put = fake.requests.at(-1);
    expect(fake.requests.length).toBe(before + 1);
    expect(put?.method).toBe("PUT");
    expect(put?.path).toBe("/uploads/attachments/x/y.jpg");
    expect(String(put?.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKE\//);
    expect(fake.objects.get("attachments/x/y.jpg")).toEqual({
      body: Buffer.from("jpeg bytes"),
      contentType: "image/jpeg",
    });
  });

  it("a wrong key is an error, not an empty object", async () => {
    const wrong = new S3Storage({
      bucket: "uploads",
      region: "us-east-1",
      endpoint: fake.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: "SOMEONEELSE", secretAccessKey: "x" },
    });
    await expect(wrong.get("attachments/x/y.jpg")).rejects.toThrow();
  });

  it("configuration picks the implementation", () => {
    expect(storageFromEnv(parseEnv({ DATA_DIR: dir })).driver).toBe("local");
    expect(storageFromEnv(parseEnv({ S3_BUCKET: "b" })).driver).toBe("s3");
    expect(storageFromEnv(parseEnv({ S3_BUCKET: "b", STORAGE_DRIVER: "local" })).driver).toBe(
      "local",
    );
  });
});

describe("production refuses storage its instances cannot share", () => {
  const deployment = {
    NODE_ENV: "production",
    DATABASE_URL: "postgres://x@y/z",
    AUTH_SECRET: "s".repeat(32),
    CRON_SECRET: "c".repeat(32),
    DEV_IDP_ENABLED: "1",
  };
  it("names the settings when a deployment would keep uploads on its local disk", () => {
    const problems = productionProblems(parseEnv(deployment)).join("\n");
    expect(problems).toContain("S3_BUCKET");
    expect(problems).toContain("STORAGE_LOCAL_IN_PRODUCTION=1");
    expect(productionProblems(parseEnv({ ...deployment, S3_BUCKET: "b" }))).toEqual([]);
    expect(
      productionProblems(parseEnv({ ...deployment, STORAGE_LOCAL_IN_PRODUCTION: "1" })),
    ).toEqual([]);
    expect(productionProblems(parseEnv({ ...deployment, STORAGE_DRIVER: "s3" })).join()).toContain(
      "S3_BUCKET is required when STORAGE_DRIVER=s3",
    );
    // The embedded production build (PGlite + local chain) keeps everything under DATA_DIR.
    expect(productionProblems(parseEnv({ NODE_ENV: "production", DEV_IDP_ENABLED: "1" }))).toEqual(
      [],
    );
  });
});

describe("upload checks", () => {
  it("reads the real type from the bytes", async () => {
    expect(sniffType(await jpegWithMetadata())).toBe("image/jpeg");
    expect(sniffType(await pngWithMetadata())).toBe("image/png");
    expect(sniffType(await webpWithMetadata())).toBe("image/webp");
    expect(sniffType(mp4WithMetadata().file)).toBe("video/mp4");
    expect(sniffType(mp4WithMetadata("qt  ").file)).toBe("video/quicktime");
    expect(sniffType(Buffer.from("\x1aE\xdf\xa3\x9fB\x86\x81\x01B\x82\x84webm", "latin1"))).toBe(
      "video/webm",
    );
    expect(sniffType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffType(Buffer.from("GIF89a"))).toBeNull();
  });

  it("refuses a file that lies about its type (415), naming both", async () => {
    const png = await pngWithMetadata();
    const lie = await refusal(() => checkUpload(png, "image/jpeg"));
    expect(lie.status).toBe(415);
    expect(lie.code).toBe("unsupported_media_type");
    expect(lie.message).toBe("The file says it is image/jpeg, but its content is image/png.");
    expect(lie.details).toMatchObject({ declared: "image/jpeg", detected: "image/png" });
    // A page or script dressed as an image.
    const html = await refusal(() =>
      checkUpload(Buffer.from("<html><script>x</script>"), "image/png"),
    );
    expect(html.status).toBe(415);
    expect(html.message).toMatch(/says it is image\/png, but its content is not/);
    // An image dressed as a video, and a type not accepted at all.
    expect((await refusal(() => checkUpload(png, "video/mp4"))).status).toBe(415);
    expect((await refusal(() => checkUpload(Buffer.from("GIF89a...."), "image/gif"))).status).toBe(
      415,
    );
    // Aliases and a generic declared type are no lie.
    expect(checkUpload(await jpegWithMetadata(), "image/jpg").type).toBe("image/jpeg");
    expect(checkUpload(png, "application/octet-stream").type).toBe("image/png");
    expect(checkUpload(mp4WithMetadata("qt  ").file, "video/mp4").type).toBe("video/quicktime");
  });

  it("refuses a valid signature in front of bytes that are no image (415)", async () => {
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]);
    const err = await refusal(prepareUpload(fakeJpeg, "image/jpeg"));
    expect(err.status).toBe(415);
    expect(err.message).toMatch(/could not be read/);
  });

  it("limits the size per kind (413), from the configuration", async () => {
    process.env.UPLOAD_MAX_IMAGE_BYTES = "100";
    resetEnvCache();
    const jpeg = await jpegWithMetadata();
    const err = await refusal(() => checkUpload(jpeg, "image/jpeg"));
    expect(err.status).toBe(413);
    expect(err.code).toBe("payload_too_large");
    expect(err.details).toMatchObject({ kind: "image", limit: 100, size: jpeg.length });
    // Videos have their own limit (100 MB by default): the same bytes as a video pass.
    expect(checkUpload(mp4WithMetadata().file, "video/mp4").kind).toBe("video");
  });
});

describe("metadata is stripped from what is stored", () => {
  it("JPEG: no EXIF, XMP, ICC profile or comment; the picture turned upright by its EXIF orientation", async () => {
    const input = await jpegWithMetadata(16, 8);
    expect(jpegSegments(input).join()).toMatch(
      /APP1 Exif.*APP2 ICC_PROFILE|APP2 ICC_PROFILE.*APP1 Exif/,
    );
    expect(input.includes(SECRET)).toBe(true);
    const out = await prepareUpload(input, "image/jpeg");
    expect(out.type).toBe("image/jpeg");
    expect(out.bytes.includes(SECRET)).toBe(false);
    const segments = jpegSegments(out.bytes);
    expect(segments.filter((s) => /^APP(1|2|13)|^COM/.test(s))).toEqual([]);
    const meta = await sharp(out.bytes).metadata();
    expect([meta.exif, meta.xmp, meta.icc, meta.iptc]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect([meta.width, meta.height]).toEqual([8, 16]); // orientation 6 applied
  });

  it("PNG: no tEXt, iTXt or eXIf chunk", async () => {
    const input = await pngWithMetadata();
    expect(pngChunks(input)).toEqual(expect.arrayContaining(["tEXt", "iTXt", "eXIf"]));
    const out = await prepareUpload(input, "image/png");
    expect(out.bytes.includes(SECRET)).toBe(false);
    // What is left describes the pixels only (pHYs: their density).
    expect(
      pngChunks(out.bytes).filter((c) => !["IHDR", "pHYs", "IDAT", "IEND"].includes(c)),
    ).toEqual([]);
  });

  it("WebP: no EXIF or XMP chunk", async () => {
    const input = await webpWithMetadata();
    expect(webpChunks(input)).toEqual(expect.arrayContaining(["EXIF", "XMP "]));
    const out = await prepareUpload(input, "image/webp");
    expect(out.bytes.includes(SECRET)).toBe(false);
    expect(webpChunks(out.bytes).filter((c) => ["EXIF", "XMP ", "ICCP"].includes(c))).toEqual([]);
  });

  it("MP4/MOV: user-data and metadata boxes blanked to `free`, the media and every offset untouched", async () => {
    const { file, media } = mp4WithMetadata();
    const out = await prepareUpload(file, "video/mp4");
    expect(out.bytes.length).toBe(file.length);
    expect(out.bytes.includes(SECRET)).toBe(false);
    expect(out.bytes.includes("+47.3769")).toBe(false);
    // The media sits where it was, byte for byte.
    const at = file.indexOf(media);
    expect(out.bytes.subarray(at, at + media.length)).toEqual(media);
    expect(out.bytes.toString("latin1")).not.toMatch(/udta|meta/);
    expect(out.bytes.toString("latin1").match(/free/g)).toHaveLength(3);
    // A box that overruns its file is refused, not stored half-read.
    const broken = Buffer.from(file);
    broken.writeUInt32BE(0xffffff, 28); // moov's size, past the end
    expect((await refusal(prepareUpload(broken, "video/mp4"))).status).toBe(415);
  });

  it("what the local storage keeps is the stripped file (read back from disk)", async () => {
    const s = new LocalStorage(dir);
    const out = await prepareUpload(await jpegWithMetadata(), "image/jpeg");
    await s.put("drafts/strip/check.jpg", out.bytes, out.type);
    const onDisk = readFileSync(path.join(dir, "drafts/strip/check.jpg"));
    expect(onDisk.includes(SECRET)).toBe(false);
    expect((await sharp(onDisk).metadata()).exif).toBeUndefined();
  });
});

describe("the Range header a media route serves", () => {
  const req = (headers: Record<string, string>) =>
    new Request("http://x/media", { headers: new Headers(headers) });
  it("reads one byte range, and ignores what it does not serve (whole object instead)", () => {
    expect(requestedRange(req({ range: "bytes=0-1" }))).toEqual({ start: 0, end: 1 });
    expect(requestedRange(req({ range: "bytes=100-" }))).toEqual({ start: 100 });
    expect(requestedRange(req({ range: "bytes=-500" }))).toEqual({ suffix: 500 });
    for (const ignored of [
      "bytes=5-1", // backwards
      "bytes=-", // nothing
      "bytes=0-1,5-9", // several ranges
      "items=0-1", // another unit
      "bytes=abc-",
      "bytes=99999999999999999999-",
    ])
      expect(requestedRange(req({ range: ignored })), ignored).toBeUndefined();
    expect(requestedRange(req({}))).toBeUndefined();
    // If-Range asks "only if unchanged": these responses carry no validator, so send it whole.
    expect(requestedRange(req({ range: "bytes=0-1", "if-range": '"etag"' }))).toBeUndefined();
  });
});

describe("an upload over the limit whose declared size lies", () => {
  /** A body of `total` bytes in 1 KiB chunks, counting how many were pulled from it. */
  function counted(total: number) {
    const pulled = { bytes: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled.bytes >= total) return controller.close();
        pulled.bytes += 1024;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        pulled.cancelled = true;
      },
    });
    return { body, pulled };
  }
  const LIMIT = 4096;
  const limits = () => {
    process.env.UPLOAD_MAX_IMAGE_BYTES = String(LIMIT);
    process.env.UPLOAD_MAX_VIDEO_BYTES = String(LIMIT);
    resetEnvCache();
  };

  it("a direct upload the store says is 10 bytes: refused at the limit as the bytes arrive (413), and removed", async () => {
    limits();
    const { body, pulled } = counted(1024 * 1024);
    const removed: string[] = [];
    const store: ObjectStorage = {
      driver: "s3",
      put: async () => {},
      get: async () => ({ body, contentType: "video/mp4", size: 10 }),
      delete: async (key) => {
        removed.push(key);
      },
    };
    const id = "00000000-0000-4000-8000-000000000000.mp4";
    const err = await refusal(claimUpload(store, { id: "u1" }, id));
    expect(err.status).toBe(413);
    expect(err.code).toBe("payload_too_large");
    expect(err.details).toMatchObject({ limit: LIMIT });
    // Read up to the limit and one chunk past it, then the rest was never asked for.
    expect(pulled.bytes).toBeLessThanOrEqual(LIMIT + 2 * 1024);
    expect(pulled.cancelled).toBe(true);
    expect(removed).toEqual([`incoming/u1/${id}`]);
  });

  it("a form whose Content-Length says 100 bytes and sends a megabyte: refused at the limit (413)", async () => {
    limits();
    const { body, pulled } = counted(1024 * 1024);
    const req = new Request("http://app.test/upload", {
      method: "POST",
      body,
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": "100" },
      duplex: "half",
    } as RequestInit);
    const err = await refusal(readUploadForm(req));
    expect(err.status).toBe(413);
    expect(err.code).toBe("payload_too_large");
    expect(pulled.bytes).toBeLessThanOrEqual(LIMIT + FORM_OVERHEAD + 2 * 1024);
  });
});
