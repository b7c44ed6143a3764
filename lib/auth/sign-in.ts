import type { DbOrTx } from "@/db/client";
import { linkIdentityWallet } from "@/db/queries/users";
import type { ProfileType, User } from "@/db/schema";
import { accountForIdentity } from "@/lib/auth/accounts";
import { isDevEmbeddedWallet } from "@/lib/auth/dev-idp";
import {
  type IdentityConfig,
  identityConfig,
  isDevProvider,
  usesDevIdentityProvider,
  type VerifiedIdentity,
  verifyIdentityToken,
} from "@/lib/auth/identity";
import { createSessionToken, type SessionToken } from "@/lib/auth/session";

// POST /api/auth/session's domain step: identity token → user → session token.

export type SignInResult = { user: User; session: SessionToken };

/**
 * Verifies the identity token before writing anything, finds or makes the user by (issuer,
 * subject) (409 account_exists when the e-mail is another account's: lib/auth/accounts.ts), records a wallet the token delivers when the user has none and nobody else
 * holds it (never failing the login over it), and issues a session token. From the dev
 * provider only its own derived embedded wallet counts (the stand-in for a provider's
 * embedded wallet); any other address is proven only by a signature (POST /api/auth/wallet).
 */
export async function signIn(
  db: DbOrTx,
  p: { idToken: string; profileType?: ProfileType },
  config: IdentityConfig = identityConfig(),
): Promise<SignInResult> {
  const identity = await verifyIdentityToken(p.idToken, config);
  const user = await userForIdentity(db, identity, config, p.profileType);
  return { user, session: await createSessionToken(user.id, user.sessionVersion) };
}

/**
 * The user a verified identity is (created on first sight, as `profileType`), with a wallet
 * the token delivers linked as described above. Shared by sign-in and by identity tokens
 * presented directly as the bearer (lib/auth/caller.ts), so both map to the same user.
 */
export async function userForIdentity(
  db: DbOrTx,
  identity: VerifiedIdentity,
  config: IdentityConfig,
  profileType: ProfileType = "creator",
): Promise<User> {
  let user = await accountForIdentity(db, {
    issuer: identity.issuer,
    subject: identity.subject,
    email: identity.email,
    profileType,
    emailHeld: "refuse",
  });
  // A real provider vouches for the wallet it delivers; the dev provider only for the
  // embedded wallet it derives itself (lib/auth/dev-idp.ts), never for another address.
  const trustsWalletClaim =
    !isDevProvider(config) ||
    (identity.walletAddress !== null &&
      usesDevIdentityProvider(config) &&
      isDevEmbeddedWallet(identity.subject, identity.walletAddress));
  if (trustsWalletClaim && identity.walletAddress && !user.walletAddress) {
    user =
      (await linkIdentityWallet(db, { userId: user.id, walletAddress: identity.walletAddress })) ??
      user;
  }
  return user;
}
