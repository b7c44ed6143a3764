import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { findVisibleDeal } from "@/db/queries/deals";
import {
  countUnreadMessages,
  findDealMessage,
  findMessageSeq,
  insertMessage,
  latestMessageSeq,
  listMessagesPage,
  markMessagesReadUpTo,
} from "@/db/queries/messages";
import type { Deal, DealMessage, MessageAttachment } from "@/db/schema";
import { iso, nextCursor } from "@/lib/api/fields";
import type { Caller } from "@/lib/deals/deals";
import { messageBody } from "@/lib/deals/schemas";
import { AppError, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/events";
import { invalidRequest, readBody } from "@/lib/http";
import { decodeCursor, encodeCursor, type PageQuery, toPage } from "@/lib/pagination";
import { countRequest, type Window } from "@/lib/rate-limit";
import { type ObjectStorage, type RangeRequest, storage } from "@/lib/storage";
import { formFile, formText, readUploadForm } from "@/lib/storage/form";
import { serveObject } from "@/lib/storage/serve";
import { prepareUpload } from "@/lib/storage/uploads";

// Messages on every deal: one thread between the deal's brand and its creator. Bodies are
// plain text, stored and returned as sent (pages render them as text, never as HTML). Each
// message is also an event of the activity log (`message.created`), so it reaches the other
// party's inbox, e-mail and webhooks and shows on the timeline. Each party has a read
// marker: the other party's messages after it are unread.

export { MESSAGE_MAX_CHARS } from "@/lib/deals/schemas";

export type MessageLimits = { perMinute: number; perHour: number };

/** How many messages one person may send, across every deal and every app instance. */
export const MESSAGE_LIMITS: MessageLimits = { perMinute: 20, perHour: 200 };

export const messageAttachmentSchema = z.object({
  url: z.string().describe("GET it with the same credentials (the deal's parties only)"),
  contentType: z.string(),
  kind: z.enum(["image", "video"]),
  size: z.number().int().nonnegative(),
  name: z.string().nullable(),
});
/** A message's file: fetched from `url` by the deal's two parties only. */
export type MessageAttachmentJson = z.infer<typeof messageAttachmentSchema>;

export const messageSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    author: z.object({ id: z.uuid(), role: z.enum(["brand", "creator"]) }),
    body: z.string().describe("Plain text, as sent: render it as text, never as HTML"),
    attachment: messageAttachmentSchema.nullable(),
    createdAt: iso,
  })
  .meta({ id: "Message" });
export type MessageJson = z.infer<typeof messageSchema>;
export const messageResponse = z.object({ message: messageSchema });

/** A file sent with a message, as read from the request (lib/storage/form.ts). */
export type MessageFile = { bytes: Uint8Array; type: string; name: string | null };

const unreadCount = z
  .number()
  .int()
  .nonnegative()
  .describe("The other party's messages the caller has not marked read");
export const messagePageResponse = z.object({
  messages: z.array(messageSchema).describe("Newest first"),
  nextCursor,
  unreadCount,
});
export type MessagePage = z.infer<typeof messagePageResponse>;
/** POST /api/deals/:id/messages/read answers the caller's unread count after the marker moved. */
export const messagesReadResponse = z.object({ unreadCount: z.number().int().nonnegative() });

const messageJson =
  (deal: Deal) =>
  (m: DealMessage): MessageJson => ({
    id: m.id,
    dealId: m.dealId,
    author: { id: m.authorId, role: m.authorId === deal.brandId ? "brand" : "creator" },
    body: m.body,
    attachment: m.attachment ? attachmentJson(m) : null,
    createdAt: m.createdAt.toISOString(),
  });

function attachmentJson(m: DealMessage): MessageAttachmentJson | null {
  const a = m.attachment;
  if (!a) return null;
  return {
    url: `/api/deals/${m.dealId}/messages/${m.id}/attachment`,
    contentType: a.contentType,
    kind: a.kind,
    size: a.size,
    name: a.name,
  };
}

/** The deal, when the caller is its brand or its creator; 404 for anyone else. */
async function partyDeal(db: DbOrTx, caller: Caller, dealId: string): Promise<Deal> {
  const deal = await findVisibleDeal(db, caller, dealId);
  if (!deal || (deal.brandId !== caller.id && deal.creatorId !== caller.id)) throw notFound("Deal");
  return deal;
}

const seqSchema = z.number().int().nonnegative();

/** GET /api/deals/:id/messages — newest first, with the caller's unread count. */
export async function listMessages(
  db: DbOrTx,
  caller: Caller,
  dealId: string,
  page: PageQuery,
): Promise<MessagePage> {
  const deal = await partyDeal(db, caller, dealId);
  const list = `messages:${dealId}`;
  const before = page.cursor ? decodeCursor(list, page.cursor, seqSchema) : undefined;
  const [rows, unreadCount] = await Promise.all([
    listMessagesPage(db, dealId, { before, limit: page.limit + 1 }),
    countUnreadMessages(db, dealId, caller.id),
  ]);
  const result = toPage(rows, page.limit, messageJson(deal), (r) => encodeCursor(list, r.seq));
  return { messages: result.items, nextCursor: result.nextCursor, unreadCount };
}

/** The windows a person's messages are counted in (shared by every instance: lib/rate-limit.ts). */
export function messageWindows(userId: string, limits = MESSAGE_LIMITS): Window[] {
  return [
    { bucket: `messages:${userId}:minute`, limit: limits.perMinute, windowMs: 60_000 },
    { bucket: `messages:${userId}:hour`, limit: limits.perHour, windowMs: 3_600_000 },
  ];
}

/**
 * POST /api/deals/:id/messages — a party writes to the other. Counted against the sender's
 * rate limit first (429 past it); the message, the sender's read marker and the event (with
 * its inbox, e-mail and webhook fan-out) are written in one transaction.
 */
export async function postMessage(
  db: Db,
  caller: Caller,
  dealId: string,
  input: { body: string; file?: MessageFile | null },
  opts: { limits?: MessageLimits; now?: number; storage?: ObjectStorage } = {},
): Promise<{ message: MessageJson }> {
  const deal = await partyDeal(db, caller, dealId);
  if (!deal.creatorId)
    throw new AppError(
      "invalid_state",
      "Nobody has taken this deal yet; messages start once a creator does.",
    );
  await countRequest(db, messageWindows(caller.id, opts.limits), opts.now);
  // The file is checked (415, 413), stripped of its metadata and stored before the message
  // is written; if the message is not written after all, it is removed again.
  const files = opts.storage ?? storage();
  let attachment: MessageAttachment | null = null;
  if (input.file) {
    const upload = await prepareUpload(input.file.bytes, input.file.type);
    const key = `messages/${dealId}/${randomUUID()}.${upload.ext}`;
    await files.put(key, upload.bytes, upload.type);
    attachment = {
      key,
      contentType: upload.type,
      kind: upload.kind,
      size: upload.bytes.byteLength,
      name: input.file.name?.slice(0, 200) ?? null,
    };
  }
  const written = db.transaction(async (tx) => {
    const row = await insertMessage(tx, {
      dealId,
      authorId: caller.id,
      body: input.body,
      attachment,
    });
    if (!row) throw new Error("insert returned no message");
    await markMessagesReadUpTo(tx, dealId, caller.id, row.seq);
    await recordEvent(tx, {
      dealId,
      type: "message.created",
      actorId: caller.id,
      data: { messageId: row.id, body: row.body, attachment: attachmentJson(row) },
    });
    return row;
  });
  const message = await written.catch(async (err: unknown) => {
    if (attachment) await files.delete(attachment.key).catch(() => {});
    throw err;
  });
  return { message: messageJson(deal)(message) };
}

/**
 * GET /api/deals/:id/messages/:messageId/attachment — the file, streamed to the deal's two
 * parties only (lib/storage/serve.ts: private, never sniffed, sandboxed).
 */
export async function messageAttachmentResponse(
  db: DbOrTx,
  caller: Caller,
  dealId: string,
  messageId: string,
  opts: { storage?: ObjectStorage; range?: RangeRequest } = {},
): Promise<Response> {
  await partyDeal(db, caller, dealId);
  const message = await findDealMessage(db, dealId, messageId);
  if (!message?.attachment) throw notFound("Attachment");
  const { key } = message.attachment;
  const ext = key.split(".").at(-1) ?? "bin";
  return serveObject(
    opts.storage ?? storage(),
    key,
    `message-${message.seq}.${ext}`,
    "Attachment",
    opts.range,
  );
}

/**
 * A message arrives as JSON ({ body }) or, with a file, as multipart/form-data (fields
 * `body` and `file`), read within the upload limits (lib/storage/form.ts).
 */
export async function readMessageSubmission(
  req: Request,
): Promise<{ body: string; file: MessageFile | null }> {
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "multipart/form-data") {
    const form = await readUploadForm(req);
    const parsed = messageBody.safeParse({ body: formText(form, "body") ?? "" });
    if (!parsed.success) throw invalidRequest(parsed.error.issues, "body");
    return { body: parsed.data.body, file: await formFile(form, "file") };
  }
  if (type !== "application/json")
    throw new AppError(
      "unsupported_media_type",
      "Send the message as JSON ({ body }) or, with a file, as multipart/form-data (body, file).",
    );
  let value: unknown;
  try {
    value = JSON.parse((await readBody(req)) || "{}");
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
  const parsed = messageBody.safeParse(value);
  if (!parsed.success) throw invalidRequest(parsed.error.issues, "body");
  return { body: parsed.data.body, file: null };
}

/**
 * POST /api/deals/:id/messages/read — the caller has read the thread up to `upTo` (a message
 * of this deal), or all of it; the marker never moves back.
 */
export async function markMessagesRead(
  db: DbOrTx,
  caller: Caller,
  dealId: string,
  input: { upTo?: string },
): Promise<z.infer<typeof messagesReadResponse>> {
  await partyDeal(db, caller, dealId);
  const seq = input.upTo
    ? await findMessageSeq(db, dealId, input.upTo)
    : await latestMessageSeq(db, dealId);
  if (seq === undefined) throw notFound("Message");
  if (seq > 0) await markMessagesReadUpTo(db, dealId, caller.id, seq);
  return { unreadCount: await countUnreadMessages(db, dealId, caller.id) };
}
