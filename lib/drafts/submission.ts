import { AppError } from "@/lib/errors";
import { invalidRequest, MAX_BODY_BYTES, readBody } from "@/lib/http";
import { maxUploadBytes } from "@/lib/storage/uploads";
import type { DraftFile } from "./drafts";
import { type DraftInput, draftBody } from "./schemas";

// A draft arrives as JSON ({ caption, link? }) or, with a file, as multipart/form-data
// (fields `caption`, `link`, `file`). The body is refused from its Content-Length before it
// is read when it is larger than the largest upload allows, and cut off at that size when it
// does not say; the file's own limit (by its real type) is checked after (lib/storage/uploads).

/** Room for the form's boundaries and text fields around the file. */
const FORM_OVERHEAD = MAX_BODY_BYTES;

async function readBytes(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  const tooLarge = () =>
    new AppError(
      "payload_too_large",
      `An upload may be at most ${Math.round(((limit - FORM_OVERHEAD) / 1024 / 1024) * 10) / 10} MB.`,
    );
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function parseFields(fields: unknown): DraftInput {
  const parsed = draftBody.safeParse(fields);
  if (!parsed.success) throw invalidRequest(parsed.error.issues, "body");
  return parsed.data;
}

export async function readDraftSubmission(
  req: Request,
): Promise<{ input: DraftInput; file: DraftFile | null }> {
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse((await readBody(req)) || "{}");
    } catch {
      throw new AppError("invalid_json", "The request body is not valid JSON.");
    }
    return { input: parseFields(value), file: null };
  }
  if (type !== "multipart/form-data")
    throw new AppError(
      "unsupported_media_type",
      "Send the draft as JSON ({ caption, link }) or, with a file, as multipart/form-data (caption, link, file).",
    );
  const bytes = await readBytes(req, maxUploadBytes() + FORM_OVERHEAD);
  let form: FormData;
  try {
    // A view of the same memory (Buffer.concat's ArrayBuffer is never shared): no copy.
    const view = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    form = await new Response(view, {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new AppError("invalid_request", "The multipart form could not be read.");
  }
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const input = parseFields({ caption: text("caption") ?? "", link: text("link") });
  const part = form.get("file");
  if (part === null || typeof part === "string" || part.size === 0) return { input, file: null };
  return {
    input,
    file: {
      bytes: new Uint8Array(await part.arrayBuffer()),
      type: part.type,
      name: part.name || null,
    },
  };
}
