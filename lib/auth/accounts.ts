import type { DbOrTx } from "@/db/client";
import {
  findOtherUserByEmail,
  findUserByAnyIdentity,
  getUserById,
  insertLinkedIdentity,
  listLinkedIdentities,
  lockEmail,
  lockIdentity,
  setUserEmail,
  upsertUserByIdentity,
} from "@/db/queries/users";
import type { ProfileType, User } from "@/db/schema";
import { AppError } from "@/lib/errors";

// One account per person across the ways in (OpenID, e-mail links, Sign in with Ethereum):
// - an identity signs in to the account it made or was linked to;
// - a new identity whose verified e-mail an account already holds (as its e-mail, or as the
//   e-mail of an identity it linked) does not get a second account: an e-mail link, which
//   proves the e-mail itself, signs in to that account; any other method is refused with
//   409 account_exists, and the person signs in the way they did before and links the new
//   method from their profile (linkIdentity below: only ever for the signed-in account);
// - accounts made by a wallet alone carry a placeholder e-mail that never matches anyone.
// First sign-ins and links of one identity, and of one e-mail, are serialised by
// transaction-scoped advisory locks, so two browsers racing cannot make two accounts.

/** The e-mail domain of an account made by a wallet alone (RFC 2606: never deliverable). */
export const PLACEHOLDER_EMAIL_DOMAIN = "@wallet.invalid";
export const isPlaceholderEmail = (email: string | null | undefined): boolean =>
  !email || email.toLowerCase().endsWith(PLACEHOLDER_EMAIL_DOMAIN);

export type IdentityRef = { issuer: string; subject: string };

const accountExists = (email: string) =>
  new AppError(
    "account_exists",
    `An account with ${email} already exists. Sign in the way you did before, then add this way of signing in from your profile.`,
    { details: { reason: "account_exists" } },
  );

/**
 * The account an identity signs in to, made on first sight as `profileType`. When another
 * account holds the identity's e-mail: `emailHeld: "use"` signs in to it (the identity is
 * that e-mail, proven by a link), `"refuse"` answers 409 account_exists.
 */
export async function accountForIdentity(
  db: DbOrTx,
  p: IdentityRef & { email: string; profileType: ProfileType; emailHeld: "use" | "refuse" },
): Promise<User> {
  const known = await findUserByAnyIdentity(db, p);
  if (known) return refreshEmail(db, known, p);
  return db.transaction(async (tx) => {
    await lockIdentity(tx, p);
    if (!isPlaceholderEmail(p.email)) await lockEmail(tx, p.email);
    const raced = await findUserByAnyIdentity(tx, p);
    if (raced) return raced;
    if (!isPlaceholderEmail(p.email)) {
      const holder = await findOtherUserByEmail(tx, { email: p.email });
      if (holder) {
        if (p.emailHeld === "use") return holder;
        throw accountExists(p.email);
      }
    }
    return upsertUserByIdentity(tx, p);
  });
}

/**
 * The account's first identity may report a new e-mail (the person changed it at their
 * provider): it is taken over when no other account holds it, as sign-in always did.
 */
async function refreshEmail(
  db: DbOrTx,
  user: User,
  p: IdentityRef & { email: string },
): Promise<User> {
  const first = user.issuer === p.issuer && user.subject === p.subject;
  if (!first || user.email === p.email || isPlaceholderEmail(p.email)) return user;
  return db.transaction(async (tx) => {
    await lockEmail(tx, p.email);
    if (await findOtherUserByEmail(tx, { email: p.email, exceptUserId: user.id })) return user;
    return (await setUserEmail(tx, { userId: user.id, email: p.email })) ?? user;
  });
}

/**
 * Links a further way of signing in to the signed-in account `userId`. Refused (409
 * identity_in_use) when the identity already signs in to another account, and (409
 * account_exists) when its e-mail belongs to another account. A wallet-only account takes
 * the identity's e-mail as its own, so its mail reaches a real address. Linking the same
 * identity again changes nothing.
 */
export async function linkIdentity(
  db: DbOrTx,
  p: IdentityRef & { userId: string; email: string | null },
): Promise<{ user: User; linked: boolean }> {
  return db.transaction(async (tx) => {
    await lockIdentity(tx, p);
    const email = p.email && !isPlaceholderEmail(p.email) ? p.email : null;
    if (email) await lockEmail(tx, email);
    const user = await getUserById(tx, p.userId);
    if (!user) throw new AppError("invalid_token", "The session's user no longer exists.");
    const owner = await findUserByAnyIdentity(tx, p);
    if (owner?.id === user.id) return { user, linked: false };
    if (owner)
      throw new AppError(
        "identity_in_use",
        "That sign-in already belongs to another Milestone account. Sign in with it to use that account; an account cannot be taken over by linking.",
        { details: { reason: "identity_in_use" } },
      );
    if (email && (await findOtherUserByEmail(tx, { email, exceptUserId: user.id })))
      throw accountExists(email);
    await insertLinkedIdentity(tx, { ...p, email });
    const updated =
      email && isPlaceholderEmail(user.email)
        ? await setUserEmail(tx, { userId: user.id, email })
        : null;
    return { user: updated ?? user, linked: true };
  });
}

export type AccountIdentity = IdentityRef & {
  email: string | null;
  /** The identity the account was made with (the others were linked later). */
  first: boolean;
  linkedAt: Date;
};

/** Every identity that signs in to the account, the first one first. */
export async function accountIdentities(db: DbOrTx, user: User): Promise<AccountIdentity[]> {
  const linked = await listLinkedIdentities(db, user.id);
  return [
    {
      issuer: user.issuer,
      subject: user.subject,
      email: isPlaceholderEmail(user.email) ? null : user.email,
      first: true,
      linkedAt: user.createdAt,
    },
    ...linked.map((i) => ({
      issuer: i.issuer,
      subject: i.subject,
      email: i.email,
      first: false,
      linkedAt: i.createdAt,
    })),
  ];
}
