import { z } from "zod";
import { notFound } from "@/lib/errors";
import {
  type ObjectStorage,
  RangeNotSatisfiable,
  type RangeRequest,
  type StoredObject,
} from "./types";

// How a stored object leaves the app: streamed by a route that has already checked the caller
// may see it. Private to that caller (no shared cache keeps it), never sniffed into another
// type by the browser, and sandboxed if opened on its own, so an uploaded file can never run
// as a page of this origin. Byte ranges are served (206), because video players fetch media
// that way: Safari plays no video whose server ignores `Range`.

const headers = (contentType: string, filename: string) => ({
  "Content-Type": contentType,
  "Content-Disposition": `inline; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
  "Accept-Ranges": "bytes",
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
  "Cross-Origin-Resource-Policy": "same-origin",
});

/**
 * The one range a `Range` header asks for, or undefined to send the whole object: no header,
 * another unit, several ranges, or anything malformed (RFC 9110 §14.2 lets a server ignore a
 * Range it does not serve), and any `If-Range` (these responses carry no validator to match).
 */
export function requestedRange(req: Request): RangeRequest | undefined {
  if (req.headers.has("if-range")) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.get("range")?.trim() ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  const [start, end] = [m[1], m[2]].map((v) => (v === "" ? undefined : Number(v)));
  if (![start, end].every((v) => v === undefined || Number.isSafeInteger(v))) return undefined;
  if (start === undefined) return { suffix: end as number };
  if (end !== undefined && end < start) return undefined;
  return end === undefined ? { start } : { start, end };
}

/** What objectResponse answers, as the API reference shows it: the stored file's bytes. */
export const fileResponse = z
  .string()
  .describe(
    "The file's bytes, in its stored type (image/jpeg, image/png, image/webp, video/mp4, video/quicktime or video/webm)",
  )
  .meta({ format: "binary" });

export function objectResponse(obj: StoredObject, filename: string): Response {
  if (!obj.range)
    return new Response(obj.body, {
      status: 200,
      headers: { ...headers(obj.contentType, filename), "Content-Length": String(obj.size) },
    });
  const { start, end } = obj.range;
  return new Response(obj.body, {
    status: 206,
    headers: {
      ...headers(obj.contentType, filename),
      "Content-Length": String(end - start + 1),
      "Content-Range": `bytes ${start}-${end}/${obj.size}`,
    },
  });
}

/**
 * Streams the object under `key` to a caller already allowed to see it: the whole object, the
 * `range` the request asked for (206; requestedRange reads it), or 416 when that range lies
 * past its end. 404 (`what` not
 * found) when nothing is stored there.
 */
export async function serveObject(
  files: ObjectStorage,
  key: string,
  filename: string,
  what: string,
  range?: RangeRequest,
): Promise<Response> {
  let obj: StoredObject | null;
  try {
    obj = await files.get(key, range);
  } catch (err) {
    if (!(err instanceof RangeNotSatisfiable)) throw err;
    return new Response(null, {
      status: 416,
      headers: { "Content-Range": `bytes */${err.size}`, "Cache-Control": "private, no-store" },
    });
  }
  if (!obj) throw notFound(what);
  return objectResponse(obj, filename);
}
