import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { emailOutbox, signInLinks, signInNonces } from "@/db/schema";

// Browser sign-in's own rows: e-mail links and SIWE nonces (each bound to the browser that
// asked, by the hash of a cookie nonce), the sign-in mail as an outbox row, and the user an
// e-mail address belongs to.

export async function insertSignInLink(
  db: DbOrTx,
  p: { tokenHash: string; email: string; browserHash: string; expiresAt: Date },
): Promise<void> {
  // Expired links are dead weight: each new one sweeps them.
  await db.delete(signInLinks).where(lt(signInLinks.expiresAt, sql`now()`));
  await db.insert(signInLinks).values(p);
}

/**
 * Uses a link: deletes it when the token, the address and the asking browser all match,
 * and returns it (expired or not: the caller says which); null when any differs.
 */
export async function takeSignInLink(
  db: DbOrTx,
  p: { tokenHash: string; email: string; browserHash: string },
): Promise<{ email: string; expiresAt: Date } | null> {
  const [row] = await db
    .delete(signInLinks)
    .where(
      and(
        eq(signInLinks.tokenHash, p.tokenHash),
        eq(signInLinks.email, p.email),
        eq(signInLinks.browserHash, p.browserHash),
      ),
    )
    .returning({ email: signInLinks.email, expiresAt: signInLinks.expiresAt });
  return row ?? null;
}

/** True while a link with this token exists (unused): opened in another browser. */
export async function signInLinkExists(db: DbOrTx, tokenHash: string): Promise<boolean> {
  const [row] = await db
    .select({ t: signInLinks.tokenHash })
    .from(signInLinks)
    .where(eq(signInLinks.tokenHash, tokenHash))
    .limit(1);
  return Boolean(row);
}

/**
 * A mail sent outside the notification loop (a sign-in link), recorded as sent under the id
 * it was sent with (the provider's Idempotency-Key).
 */
export async function recordSentMail(
  db: DbOrTx,
  p: { id: string; userId: string | null; to: string; subject: string; body: string },
): Promise<void> {
  await db.insert(emailOutbox).values({
    id: p.id,
    userId: p.userId,
    toAddress: p.to,
    subject: p.subject,
    body: p.body,
    status: "sent",
    attempts: 1,
    sentAt: sql`now()`,
  });
}

export async function insertSignInNonce(
  db: DbOrTx,
  p: { nonce: string; browserHash: string; expiresAt: Date },
): Promise<void> {
  await db.delete(signInNonces).where(lt(signInNonces.expiresAt, sql`now()`));
  await db.insert(signInNonces).values(p);
}

/** Uses a SIWE sign-in nonce issued to this browser and still live; false otherwise. */
export async function takeSignInNonce(
  db: DbOrTx,
  p: { nonce: string; browserHash: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .delete(signInNonces)
    .where(
      and(
        eq(signInNonces.nonce, p.nonce),
        eq(signInNonces.browserHash, p.browserHash),
        gt(signInNonces.expiresAt, p.now),
      ),
    )
    .returning({ nonce: signInNonces.nonce });
  return rows.length === 1;
}
