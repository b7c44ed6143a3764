import { type Address, getAddress } from "viem";
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from "viem/siwe";
import type { Db } from "@/db/client";
import { insertSignInNonce, takeSignInNonce } from "@/db/queries/sign-in";
import {
  findUserIdByWallet,
  getUserById,
  setUserWallet,
  upsertUserByIdentity,
} from "@/db/queries/users";
import type { ProfileType, User } from "@/db/schema";
import { PLACEHOLDER_EMAIL_DOMAIN } from "@/lib/auth/accounts";
import { browserHash } from "@/lib/auth/email-link";
import { createSessionToken } from "@/lib/auth/session";
import type { SignInResult } from "@/lib/auth/sign-in";
import { checkSiweMessage, siweDomain, verifyWalletSignature } from "@/lib/auth/wallet";
import { chainByName } from "@/lib/chain/chains";
import { appUrl, env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// Sign-In with Ethereum (EIP-4361) for people whose identity is their wallet: the same
// message checks and signature verification as linking a wallet (lib/auth/wallet.ts), with
// a nonce bound to the asking browser (its cookie nonce, as for e-mail links) instead of to
// a user, used once. The wallet's account is the one holding that wallet; a new wallet
// makes a new account (a creator unless another role is picked) with that wallet linked.

export const SIWE_PROVIDER_ID = "siwe";
export const SIWE_ISSUER = "urn:milestone:siwe";
export const SIWE_NONCE_TTL_MS = 10 * 60_000;
export const SIWE_SIGN_IN_STATEMENT = "Sign in to Milestone with this wallet.";

/** The e-mail of an account made by a wallet alone (no address to write to). */
export const walletOnlyEmail = (address: Address) =>
  `${address.toLowerCase()}${PLACEHOLDER_EMAIL_DOMAIN}`;

/** A nonce for this browser and the message for `address` to sign. */
export async function issueSignInMessage(
  db: Db,
  p: { browserNonce: string; address: Address; chainId?: number; now?: Date },
): Promise<{ message: string; expiresAt: string }> {
  const issuedAt = p.now ?? new Date();
  const expirationTime = new Date(issuedAt.getTime() + SIWE_NONCE_TTL_MS);
  const nonce = generateSiweNonce();
  await insertSignInNonce(db, {
    nonce,
    browserHash: browserHash(p.browserNonce),
    expiresAt: expirationTime,
  });
  const message = createSiweMessage({
    domain: siweDomain(),
    uri: appUrl(),
    statement: SIWE_SIGN_IN_STATEMENT,
    chainId: p.chainId ?? chainByName(env().CHAIN).chain.id,
    address: getAddress(p.address),
    nonce,
    issuedAt,
    expirationTime,
    version: "1",
  });
  return { message, expiresAt: expirationTime.toISOString() };
}

/**
 * Checks the message (this site, the address, not expired), the signature and the nonce
 * (issued to this browser, unused: it is used up here), then signs in as the wallet's account.
 */
export async function signInWithEthereum(
  db: Db,
  p: {
    message: string;
    signature: `0x${string}`;
    browserNonce: string | undefined;
    profileType?: ProfileType;
    now?: Date;
  },
): Promise<SignInResult> {
  const now = p.now ?? new Date();
  const address = parseSiweMessage(p.message).address;
  if (!address)
    throw new AppError("invalid_request", "The message names no address.", {
      details: { reason: "message_malformed" },
    });
  const nonce = checkSiweMessage(p.message, address, now);
  await verifyWalletSignature({ address, message: p.message, signature: p.signature });
  if (
    !p.browserNonce ||
    !(await takeSignInNonce(db, { nonce, browserHash: browserHash(p.browserNonce), now }))
  )
    throw new AppError(
      "invalid_request",
      "This message was already used, has expired, or was asked for in another browser.",
      { details: { reason: "nonce_used" } },
    );
  const user = await userForWallet(db, address, p.profileType ?? "creator");
  return { user, session: await createSessionToken(user.id, user.sessionVersion) };
}

async function userForWallet(db: Db, address: Address, profileType: ProfileType): Promise<User> {
  const holder = await findUserIdByWallet(db, address);
  const existing = holder ? await getUserById(db, holder) : null;
  if (existing) return existing;
  const user = await upsertUserByIdentity(db, {
    issuer: SIWE_ISSUER,
    subject: address.toLowerCase(),
    email: walletOnlyEmail(address),
    profileType,
  });
  if (user.walletAddress) return user;
  return (
    (await setUserWallet(db, { userId: user.id, walletAddress: address, source: "signature" })) ??
    user
  );
}
