import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { authSecret } from "@/lib/auth/secret";
import { AppError } from "@/lib/errors";

// Cursor pagination shared by every list: `limit` (1..100, default 20) and an opaque
// `cursor` naming the last row a page ended on. Cursors are signed, so an unknown or
// tampered one is a 400 rather than a silently wrong page; they carry the list's name, so
// one list's cursor is refused by another.

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export type Page<T> = { items: T[]; nextCursor: string | null };

function sign(payload: string): string {
  return createHmac("sha256", authSecret()).update(`cursor:${payload}`).digest("base64url");
}

export function encodeCursor(list: string, position: unknown): string {
  const payload = Buffer.from(JSON.stringify([list, position])).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/** The position a cursor of `list` carries; 400 invalid_request when it is not one of ours. */
export function decodeCursor<T>(list: string, cursor: string, schema: z.ZodType<T>): T {
  const bad = () =>
    new AppError("invalid_request", "The request query is invalid.", {
      details: [{ path: ["cursor"], message: "is not a cursor of this list", code: "custom" }],
    });
  const [payload, signature] = cursor.split(".");
  if (!payload || !signature) throw bad();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
  try {
    const [name, position] = JSON.parse(Buffer.from(payload, "base64url").toString()) as [
      unknown,
      unknown,
    ];
    if (name !== list) throw bad();
    return schema.parse(position);
  } catch {
    throw bad();
  }
}

/** Cuts a page fetched with `limit + 1` rows: the extra row says whether there is more. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  render: (row: R) => T,
  cursorOf: (row: R) => string,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(render),
    nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null,
  };
}
