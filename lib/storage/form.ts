import { AppError } from "@/lib/errors";
import { MAX_BODY_BYTES, readAtMost } from "@/lib/http";
import { maxUploadBytes } from "@/lib/storage/uploads";

// A multipart/form-data body with a file (a draft's media, a message's attachment), read
// whole into memory: refused from its Content-Length before it is read when it is larger than
// the largest upload allows (plus room for the form's other fields), and cut off at that size
// when it does not say. The file's own limit (by its real type) is checked after
// (lib/storage/uploads.ts).

/** Room for the form's boundaries and text fields around the file. */
export const FORM_OVERHEAD = MAX_BODY_BYTES;

async function readBytes(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  const tooLarge = () =>
    new AppError(
      "payload_too_large",
      `An upload may be at most ${Math.round(((limit - FORM_OVERHEAD) / 1024 / 1024) * 10) / 10} MB.`,
    );
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  // A Content-Length that says less than is sent does not get more read: cut off at the limit.
  return readAtMost(req.body, limit, tooLarge);
}

/** The request's multipart form (400 when it cannot be read as one). */
export async function readUploadForm(req: Request): Promise<FormData> {
  const bytes = await readBytes(req, maxUploadBytes() + FORM_OVERHEAD);
  try {
    // A view of the same memory (Buffer.concat's ArrayBuffer is never shared): no copy.
    const view = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    return await new Response(view, {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new AppError("invalid_request", "The multipart form could not be read.");
  }
}

/** A form's text field, or undefined when absent or empty. */
export function formText(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** A form's file field, or null when absent or empty. */
export async function formFile(
  form: FormData,
  name: string,
): Promise<{ bytes: Uint8Array; type: string; name: string | null } | null> {
  const part = form.get(name);
  if (part === null || typeof part === "string" || part.size === 0) return null;
  return {
    bytes: new Uint8Array(await part.arrayBuffer()),
    type: part.type,
    name: part.name || null,
  };
}
