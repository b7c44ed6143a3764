import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { type ProfileType, type User, users } from "@/db/schema";

// User rows. Identity is (issuer, subject) from the identity token; the wallet is unique
// case-insensitively (users_wallet_address_key on lower(wallet_address)).

export const WALLET_UNIQUE_INDEX = "users_wallet_address_key";

export async function getUserById(db: DbOrTx, id: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * Creates the user or refreshes the e-mail of the existing one in a single
 * INSERT … ON CONFLICT, so concurrent first logins converge on one row. `profileType`
 * only applies to a new user: role switching is POST /api/auth/role, not login.
 */
export async function upsertUserByIdentity(
  db: DbOrTx,
  p: { issuer: string; subject: string; email: string; profileType: ProfileType },
): Promise<User> {
  const [row] = await db
    .insert(users)
    .values(p)
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: { email: sql`excluded.email`, updatedAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error("upsert returned no row");
  return row;
}

/**
 * Records a wallet delivered in the identity token, but only when the user has none and
 * nobody else holds it. Returns the updated user, or null when nothing changed. Runs in
 * its own (sub)transaction so a lost race on the unique index cannot abort the caller's.
 */
export async function linkIdentityWallet(
  db: DbOrTx,
  p: { userId: string; walletAddress: string },
): Promise<User | null> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({
          walletAddress: p.walletAddress,
          walletSource: "identity_token",
          updatedAt: sql`now()`,
        })
        .where(
          sql`${users.id} = ${p.userId} and ${users.walletAddress} is null and not exists (
            select 1 from ${users} as other where lower(other.wallet_address) = lower(${p.walletAddress}))`,
        )
        .returning();
      return row ?? null;
    });
  } catch (err) {
    if (isUniqueViolation(err, WALLET_UNIQUE_INDEX)) return null;
    throw err;
  }
}

/** The id of the user holding this wallet (any letter case), or null. */
export async function findUserIdByWallet(
  db: DbOrTx,
  walletAddress: string,
): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.walletAddress}) = lower(${walletAddress})`)
    .limit(1);
  return row?.id ?? null;
}

/** Sets a wallet proven by signature. A unique violation means someone else holds it. */
export async function setUserWallet(
  db: DbOrTx,
  p: { userId: string; walletAddress: string; source: "signature" | "identity_token" },
): Promise<User | null> {
  const [row] = await db
    .update(users)
    .set({ walletAddress: p.walletAddress, walletSource: p.source, updatedAt: sql`now()` })
    .where(eq(users.id, p.userId))
    .returning();
  return row ?? null;
}

export async function setProfileType(
  db: DbOrTx,
  p: { userId: string; profileType: ProfileType },
): Promise<User | null> {
  const [row] = await db
    .update(users)
    .set({ profileType: p.profileType, updatedAt: sql`now()` })
    .where(eq(users.id, p.userId))
    .returning();
  return row ?? null;
}

/** The display name the other party sees; null removes it. */
export async function setDisplayName(
  db: DbOrTx,
  p: { userId: string; displayName: string | null },
): Promise<User | null> {
  const [row] = await db
    .update(users)
    .set({ displayName: p.displayName, updatedAt: new Date() })
    .where(eq(users.id, p.userId))
    .returning();
  return row ?? null;
}

/** Sign-out: bumps the session version, so every session token issued so far stops working. */
export async function revokeSessions(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** The user an identity (issuer, subject) signed in as, or null when it never has. */
export async function getUserByIdentity(
  db: DbOrTx,
  p: { issuer: string; subject: string },
): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.issuer, p.issuer), eq(users.subject, p.subject)))
    .limit(1);
  return row ?? null;
}
