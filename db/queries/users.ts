import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { type ProfileType, type User, type UserIdentity, userIdentities, users } from "@/db/schema";

// User rows. Identity is (issuer, subject) from the identity token: the account's first on
// `users`, any it linked later on `user_identities`. The wallet is unique case-insensitively
// (users_wallet_address_key on lower(wallet_address)).

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

/** The user an identity signs in as: the account it made, or the one it was linked to. */
export async function findUserByAnyIdentity(
  db: DbOrTx,
  p: { issuer: string; subject: string },
): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      sql`(${users.issuer} = ${p.issuer} and ${users.subject} = ${p.subject})
        or ${users.id} = (select ${userIdentities.userId} from ${userIdentities}
          where ${userIdentities.issuer} = ${p.issuer} and ${userIdentities.subject} = ${p.subject})`,
    )
    .limit(1);
  return row ?? null;
}

// Transaction-scoped advisory locks (two-key form: a namespace, then a hash) that serialise
// the first sign-in and the linking of one identity, and of one e-mail, across instances.
const IDENTITY_LOCK = 7101;
const EMAIL_LOCK = 7102;

/** Holds, until the transaction ends, the lock of this identity. */
export async function lockIdentity(tx: DbOrTx, p: { issuer: string; subject: string }) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${sql.raw(String(IDENTITY_LOCK))}, hashtext(${`${p.issuer}\n${p.subject}`}::text))`,
  );
}

/** Holds, until the transaction ends, the lock of this e-mail (any letter case). */
export async function lockEmail(tx: DbOrTx, email: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${sql.raw(String(EMAIL_LOCK))}, hashtext(lower(${email}::text)))`,
  );
}

/**
 * An account holding this e-mail (any letter case) as its own or as the e-mail of an identity
 * it linked, other than `exceptUserId`; or null.
 */
export async function findOtherUserByEmail(
  db: DbOrTx,
  p: { email: string; exceptUserId?: string },
): Promise<User | null> {
  const holds = sql`(lower(${users.email}) = lower(${p.email}) or ${users.id} in (
    select ${userIdentities.userId} from ${userIdentities}
    where lower(${userIdentities.email}) = lower(${p.email})))`;
  const [row] = await db
    .select()
    .from(users)
    .where(p.exceptUserId ? sql`${holds} and ${users.id} <> ${p.exceptUserId}` : holds)
    .orderBy(users.createdAt)
    .limit(1);
  return row ?? null;
}

/** Links a further identity to the user (the caller holds the identity's lock). */
export async function insertLinkedIdentity(
  db: DbOrTx,
  p: { userId: string; issuer: string; subject: string; email: string | null },
): Promise<UserIdentity> {
  const [row] = await db.insert(userIdentities).values(p).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** The identities linked to the user after its first, oldest first. */
export async function listLinkedIdentities(db: DbOrTx, userId: string): Promise<UserIdentity[]> {
  return db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(userIdentities.createdAt, userIdentities.id);
}

/** Replaces the account's e-mail (the caller checked that no other account holds it). */
export async function setUserEmail(
  db: DbOrTx,
  p: { userId: string; email: string },
): Promise<User | null> {
  const [row] = await db
    .update(users)
    .set({ email: p.email, updatedAt: sql`now()` })
    .where(eq(users.id, p.userId))
    .returning();
  return row ?? null;
}
