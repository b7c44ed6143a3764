import { z } from "zod";
import { pageQuery } from "@/lib/pagination";
import { uploadIdField } from "@/lib/storage/direct";
import { acceptedUploadTypes } from "@/lib/storage/uploads";

// The drafts API's shapes (lib/drafts/drafts.ts): what the creator sends, what both read.

const noNul = (s: string) => !s.includes("\u0000");

export const DRAFT_CAPTION_MAX = 5_000;

/** A draft's text: as JSON, or as the fields of a multipart form beside its `file`. */
export const draftBody = z.object({
  caption: z
    .string()
    .trim()
    .min(1, "write the caption you mean to post")
    .max(DRAFT_CAPTION_MAX, `must be at most ${DRAFT_CAPTION_MAX} characters`)
    .refine(noNul, "must not contain a NUL (\\u0000) character"),
  link: z
    .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
    .max(2000, "must be at most 2000 characters")
    .optional()
    .describe("The media as a link (a preview on a drive, an unlisted video) instead of a file"),
  upload: uploadIdField.optional(),
  uploadName: z
    .string()
    .trim()
    .max(200, "must be at most 200 characters")
    .refine(noNul, "must not contain a NUL (\\u0000) character")
    .optional()
    .describe("With `upload`: the file's name as the creator knows it, shown to the brand"),
});
export type DraftInput = z.infer<typeof draftBody>;

/** The multipart form (documentation: the handler reads it itself, with the file's bytes). */
export const draftUploadBody = draftBody.omit({ upload: true, uploadName: true }).extend({
  file: z
    .string()
    .optional()
    .describe(
      `The media file (binary): ${acceptedUploadTypes.join(", ")}; its real type is read from its bytes, metadata is removed`,
    )
    .meta({ format: "binary" }),
});

export const draftParams = z.object({
  id: z.uuid("must be a UUID"),
  draftId: z.uuid("must be a UUID"),
});

export const changesBody = z.object({
  message: z
    .string()
    .trim()
    .min(3, "say what to change (at least 3 characters)")
    .max(2_000, "must be at most 2000 characters"),
});

export const draftListQuery = pageQuery;

const requirementResult = z.object({
  kind: z.enum(["hashtag", "mention", "link", "disclosure"]),
  value: z.string(),
  found: z.boolean(),
});

export const draftSchema = z
  .object({
    id: z.uuid(),
    milestoneId: z.uuid(),
    dealId: z.uuid(),
    revision: z.number().int().min(1),
    caption: z.string(),
    media: z
      .union([
        z.object({
          kind: z.enum(["image", "video"]),
          type: z.string().describe("The stored file's type, as its bytes say"),
          size: z.number().int().describe("Bytes stored (after metadata was removed)"),
          name: z.string().nullable(),
          url: z
            .string()
            .describe(
              "Where the deal's parties (only they) fetch the file: this API, not a bucket",
            ),
        }),
        z.object({ kind: z.literal("link"), url: z.string() }),
      ])
      .nullable(),
    status: z
      .enum(["submitted", "approved", "changes_requested", "superseded"])
      .describe(
        "submitted: waiting for the brand; superseded: a newer revision replaced it before the brand answered",
      ),
    reviewMessage: z.string().nullable().describe("The brand's message with a change request"),
    reviewedAt: z.string().nullable(),
    createdAt: z.string(),
    check: z
      .object({
        ready: z.boolean().describe("Every required hashtag, mention and link is in the caption"),
        missing: z.array(z.string()).describe('What the caption lacks ("hashtag #launch")'),
        requirements: z.array(requirementResult),
        criteria: z
          .array(z.string())
          .describe("The brand's free-text criteria: no rule judges them"),
      })
      .describe("The milestone's rule checks on the draft's caption, as they stand now"),
  })
  .meta({ id: "Draft" });
export type DraftJson = z.infer<typeof draftSchema>;

export const draftResponse = z.object({ draft: draftSchema });
export const draftPageResponse = z.object({
  drafts: z.array(draftSchema),
  nextCursor: z.string().nullable(),
});
