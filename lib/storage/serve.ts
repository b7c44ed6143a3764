import type { StoredObject } from "./types";

// How a stored object leaves the app: streamed by a route that has already checked the caller
// may see it. Private to that caller (no shared cache keeps it), never sniffed into another
// type by the browser, and sandboxed if opened on its own, so an uploaded file can never run
// as a page of this origin.

export function objectResponse(obj: StoredObject, filename: string): Response {
  return new Response(obj.body, {
    status: 200,
    headers: {
      "Content-Type": obj.contentType,
      "Content-Length": String(obj.size),
      "Content-Disposition": `inline; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
