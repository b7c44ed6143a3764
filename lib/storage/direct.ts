import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { AppError } from "@/lib/errors";
import { readAtMost } from "@/lib/http";
import { reserveAttempt } from "@/lib/rate-limit";
import type { ObjectStorage } from "./types";
import { acceptedUploadTypes, maxUploadBytes, mib, uploadLimits, uploadTypes } from "./uploads";

// Direct uploads: the browser sends a large file (a draft's video) straight to the bucket,
// not through the app. A serverless host caps a request body (Vercel: 4.5 MB), far below a
// 100 MB video, and a function that buffers the file pays for it in memory and time.
// 1. POST /api/uploads { type, size } → a presigned PUT URL for a key under
//    `incoming/<caller's id>/`, valid for UPLOAD_TICKET_SECONDS, that takes exactly `size`
//    bytes of `type` (both signed).
// 2. The browser PUTs the file there (with progress).
// 3. The draft (or message) names the upload: `{ caption, upload: "<id>" }`. The app reads
//    the object back, checks it exactly as a form upload (real type from the bytes, size by
//    kind, metadata stripped), stores the result under its own key and removes the incoming
//    object. An id names only the caller's own uploads, so nobody can claim another's file.
// What never gets claimed is left under `incoming/`: the bucket's lifecycle rule removes it
// (README, "Uploads").
// With the local directory (the embedded setup) there is no bucket to send to: the ticket
// is refused with `not_configured` and the client sends the file in the form, as before.

/** How long a ticket's URL may be used. */
export const UPLOAD_TICKET_SECONDS = 15 * 60;

/** Sixty tickets a minute per person: every file of a busy session, not a way to fill a bucket. */
export const TICKET_WINDOW = { limit: 60, windowMs: 60_000 };

export const uploadTicketBody = z.object({
  type: z.enum(acceptedUploadTypes, {
    message: `must be one of ${acceptedUploadTypes.join(", ")}`,
  }),
  size: z
    .number()
    .int("must be a whole number of bytes")
    .positive("must be at least 1 byte")
    .describe("The file's size in bytes: the URL takes exactly this many"),
});
export type UploadTicketInput = z.infer<typeof uploadTicketBody>;

export const uploadTicketSchema = z
  .object({
    upload: z.object({
      id: z
        .string()
        .describe("Name this in the draft or message (`upload`) once the PUT succeeded"),
      url: z.url().describe("PUT the file's bytes here"),
      method: z.literal("PUT"),
      headers: z.record(z.string(), z.string()).describe("Send these headers with the PUT"),
      expiresAt: z.iso.datetime(),
    }),
  })
  .meta({ id: "UploadTicket" });
export type UploadTicket = z.infer<typeof uploadTicketSchema>;

/** An upload id: the incoming key after its prefix; only the caller's own resolve. */
const UPLOAD_ID = /^[0-9a-f-]{36}\.(jpg|png|webp|mp4|mov|webm)$/;
const incomingKey = (userId: string, id: string) => `incoming/${userId}/${id}`;

export const uploadIdField = z
  .string()
  .regex(UPLOAD_ID, "must be the id POST /api/uploads returned")
  .describe("A file sent straight to storage (POST /api/uploads), instead of a form upload");

function tooLarge(size: number, limit: number, type: string): AppError {
  return new AppError("payload_too_large", `A ${type} file may be at most ${mib(limit)}.`, {
    details: { size, limit },
  });
}

/** POST /api/uploads: a URL to send one file straight to storage. */
export async function createUploadTicket(
  db: DbOrTx,
  files: ObjectStorage,
  caller: { id: string },
  input: UploadTicketInput,
  now = Date.now(),
): Promise<UploadTicket> {
  if (!files.presignPut)
    throw new AppError(
      "not_configured",
      "This server keeps files on its own disk: send the file in the form (multipart/form-data) instead.",
    );
  const { kind, ext } = uploadTypes[input.type];
  const limit = uploadLimits()[kind];
  if (input.size > limit) throw tooLarge(input.size, limit, kind);
  await reserveAttempt(db, { bucket: `upload:${caller.id}`, ...TICKET_WINDOW }, now);
  const id = `${randomUUID()}.${ext}`;
  const { url, headers } = await files.presignPut(
    incomingKey(caller.id, id),
    input.type,
    input.size,
    UPLOAD_TICKET_SECONDS,
  );
  return {
    upload: {
      id,
      url,
      method: "PUT",
      headers,
      expiresAt: new Date(now + UPLOAD_TICKET_SECONDS * 1000).toISOString(),
    },
  };
}

/** A file sent straight to storage: its bytes and declared type, and how to remove it after. */
export type ClaimedUpload = {
  bytes: Uint8Array;
  type: string;
  name: null;
  /** Removes the incoming object (once what was made of it is stored, or the request failed). */
  discard(): Promise<void>;
};

/**
 * Reads back the caller's upload `id` (400 when there is none: never sent, expired and
 * removed, or not theirs). At most the largest upload's size is read (413 past it, whatever
 * size the store reported); the caller then checks it as any upload (prepareUpload).
 */
export async function claimUpload(
  files: ObjectStorage,
  caller: { id: string },
  id: string,
): Promise<ClaimedUpload> {
  if (!UPLOAD_ID.test(id)) throw missing();
  const key = incomingKey(caller.id, id);
  const obj = await files.get(key);
  if (!obj) throw missing();
  const limit = maxUploadBytes();
  if (obj.size > limit) {
    await obj.body.cancel().catch(() => {});
    await files.delete(key).catch(() => {});
    throw tooLarge(obj.size, limit, "media");
  }
  // Read with the cap as the bytes arrive: a store whose size understates the object (or an
  // object grown since) never gets more than the limit into memory.
  const bytes = await readAtMost(obj.body, limit, (received) =>
    tooLarge(received, limit, "media"),
  ).catch(async (err) => {
    await files.delete(key).catch(() => {});
    throw err;
  });
  return {
    bytes,
    type: obj.contentType,
    name: null,
    discard: () => files.delete(key).catch(() => {}),
  };
}

function missing(): AppError {
  return new AppError(
    "invalid_request",
    "No such upload: send the file to the URL POST /api/uploads gave, then name its id.",
    { details: [{ path: ["upload"], message: "no such upload", code: "custom" }] },
  );
}
