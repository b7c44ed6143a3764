import { AppError } from "@/lib/errors";
import { invalidRequest, readBody } from "@/lib/http";
import { formFile, formText, readUploadForm } from "@/lib/storage/form";
import type { DraftFile } from "./drafts";
import { type DraftInput, draftBody } from "./schemas";

// A draft arrives as JSON ({ caption, link? }) or, with a file, as multipart/form-data
// (fields `caption`, `link`, `file`), read by lib/storage/form.ts within the upload limits.

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
  const form = await readUploadForm(req);
  const input = parseFields({
    caption: formText(form, "caption") ?? "",
    link: formText(form, "link"),
  });
  return { input, file: await formFile(form, "file") };
}
