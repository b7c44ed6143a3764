import sharp from "sharp";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { Mp4FormatError, stripMp4Metadata } from "./mp4";

// What an upload must be before it is stored: one of a few image and video types, as its
// bytes say (the declared type must agree: a file that lies about its type is refused), no
// larger than the limit of its kind, and without the metadata that would tell the other
// party more than the picture does (where it was taken, on what device, by whom).
// - Images are decoded and re-encoded by sharp (libvips), which writes no EXIF, XMP, ICC
//   profile or comment unless asked, after turning the pixels upright by the EXIF
//   orientation (which would otherwise be lost with the EXIF). Decoding also proves the
//   bytes are an image and not something else behind a valid signature, and
//   `limitInputPixels` refuses a decompression bomb.
// - MP4 / QuickTime video keeps its media; its user-data and metadata boxes are blanked
//   (lib/storage/mp4.ts). WebM is stored as sent: browsers' recorders write no location,
//   and its tags are not removed (no WebM rewriter here).

export type MediaKind = "image" | "video";

export const uploadTypes = {
  "image/jpeg": { kind: "image", ext: "jpg" },
  "image/png": { kind: "image", ext: "png" },
  "image/webp": { kind: "image", ext: "webp" },
  "video/mp4": { kind: "video", ext: "mp4" },
  "video/quicktime": { kind: "video", ext: "mov" },
  "video/webm": { kind: "video", ext: "webm" },
} as const satisfies Record<string, { kind: MediaKind; ext: string }>;

export type UploadType = keyof typeof uploadTypes;

export const acceptedUploadTypes = Object.keys(uploadTypes) as UploadType[];

/** Images larger than this many pixels are refused before they are decoded (a 40-megapixel photo passes). */
export const MAX_IMAGE_PIXELS = 50_000_000;

const ascii = (b: Uint8Array, from: number, to: number) =>
  Buffer.from(b.subarray(from, to)).toString("latin1");

/** The type the bytes themselves say, from their signature; null when none accepted here. */
export function sniffType(b: Uint8Array): UploadType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 8 && ascii(b, 0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP")
    return "image/webp";
  if (b.length >= 12 && ascii(b, 4, 8) === "ftyp")
    return ascii(b, 8, 12) === "qt  " ? "video/quicktime" : "video/mp4";
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3)
    return ascii(b, 0, Math.min(b.length, 64)).includes("webm") ? "video/webm" : null;
  return null;
}

/** The limits in force (UPLOAD_MAX_IMAGE_BYTES, UPLOAD_MAX_VIDEO_BYTES). */
export function uploadLimits(): Record<MediaKind, number> {
  const e = env();
  return { image: e.UPLOAD_MAX_IMAGE_BYTES, video: e.UPLOAD_MAX_VIDEO_BYTES };
}

/** The largest upload of any kind: a body beyond it is refused before it is read. */
export const maxUploadBytes = () => Math.max(...Object.values(uploadLimits()));

/** A byte count as the limits are stated to people: "12.5 MB". */
export const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

// Browsers and tools name some types differently; these mean the same file.
const aliases: Record<string, UploadType> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "video/x-m4v": "video/mp4",
  "audio/mp4": "video/mp4",
};
/** MP4 and QuickTime are one box format; a .mov declared as video/mp4 (or back) is no lie. */
const sameFamily = (a: UploadType, b: UploadType) =>
  a === b ||
  (a.startsWith("video/") && b.startsWith("video/") && a !== "video/webm" && b !== "video/webm");

function unsupported(message: string, details: Record<string, unknown>): AppError {
  return new AppError("unsupported_media_type", message, {
    details: { ...details, accepted: acceptedUploadTypes },
  });
}

export type CheckedUpload = { type: UploadType; kind: MediaKind; ext: string };

/**
 * The upload's real type, checked against what it declares and its kind's size limit:
 * 415 `unsupported_media_type` for a type not accepted or a declared type the bytes
 * contradict, 413 `payload_too_large` past the limit. An empty or generic declared type
 * (application/octet-stream) leaves the bytes to say.
 */
export function checkUpload(bytes: Uint8Array, declared: string | null | undefined): CheckedUpload {
  const detected = sniffType(bytes);
  const said = (declared ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const claimed = said && said !== "application/octet-stream" ? (aliases[said] ?? said) : null;
  if (!detected)
    throw unsupported(
      claimed && claimed in uploadTypes
        ? `The file says it is ${said}, but its content is not: upload a JPEG, PNG or WebP image, or an MP4, MOV or WebM video.`
        : "Upload a JPEG, PNG or WebP image, or an MP4, MOV or WebM video.",
      { declared: said || null, detected: null },
    );
  if (claimed && !(claimed in uploadTypes && sameFamily(claimed as UploadType, detected)))
    throw unsupported(`The file says it is ${said}, but its content is ${detected}.`, {
      declared: said,
      detected,
    });
  const { kind, ext } = uploadTypes[detected];
  const limit = uploadLimits()[kind];
  if (bytes.byteLength > limit)
    throw new AppError("payload_too_large", `A ${kind} may be at most ${mib(limit)}.`, {
      details: { kind, limit, size: bytes.byteLength },
    });
  return { type: detected, kind, ext };
}

/** The bytes to store: the image re-encoded without metadata, the video with its metadata blanked. */
export async function stripMetadata(bytes: Uint8Array, type: UploadType): Promise<Buffer> {
  if (type === "video/webm") return Buffer.from(bytes);
  if (type === "video/mp4" || type === "video/quicktime") {
    try {
      return stripMp4Metadata(bytes).bytes;
    } catch (err) {
      if (err instanceof Mp4FormatError)
        throw unsupported(`The video could not be read: ${err.message}.`, { detected: type });
      throw err;
    }
  }
  try {
    const animated = type === "image/webp";
    const input = sharp(bytes, {
      limitInputPixels: MAX_IMAGE_PIXELS,
      failOn: "error",
      animated,
    });
    const { pages = 1 } = await input.metadata();
    // Upright by the EXIF orientation before the EXIF goes (one frame; animations keep theirs).
    const upright = pages > 1 ? input : input.rotate();
    if (type === "image/jpeg") return await upright.jpeg({ quality: 90 }).toBuffer();
    if (type === "image/png") return await upright.png().toBuffer();
    return await upright.webp({ quality: 90 }).toBuffer();
  } catch (err) {
    throw unsupported(
      "The image could not be read: it is damaged or not the image it says it is.",
      {
        detected: type,
        reason: err instanceof Error ? err.message.slice(0, 200) : undefined,
      },
    );
  }
}

/** Checks an upload and returns the bytes to store with their type (see checkUpload, stripMetadata). */
export async function prepareUpload(
  bytes: Uint8Array,
  declared: string | null | undefined,
): Promise<CheckedUpload & { bytes: Buffer }> {
  const checked = checkUpload(bytes, declared);
  return { ...checked, bytes: await stripMetadata(bytes, checked.type) };
}
