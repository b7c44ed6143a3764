import { z } from "zod";
import { iso } from "@/lib/api/fields";
import "server-only";
import { type Address, isAddressEqual, verifyMessage } from "viem";
import {
  createSiweMessage,
  generateSiweNonce,
  parseSiweMessage,
  validateSiweMessage,
} from "viem/siwe";
import type { Db, DbOrTx } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { findUserIdByWallet, setUserWallet, WALLET_UNIQUE_INDEX } from "@/db/queries/users";
import {
  consumeWalletNonce,
  createWalletNonce,
  getWalletNonce,
  pruneWalletNonces,
} from "@/db/queries/wallet-nonces";
import type { User } from "@/db/schema";
import { chainByName } from "@/lib/chain/chains";
import { appUrl, env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// Linking a wallet by signature (EIP-4361 "Sign-In with Ethereum" text): the server issues
// a nonce bound to the caller with a 10-minute expiry; the signed message must name this
// site, the address, that nonce and an expiration time. Payouts only ever go to a wallet
// proven this way or delivered in the identity token. Signatures are checked with viem's
// verifyMessage, i.e. EOA (ECDSA) signatures; smart-contract wallets (ERC-1271) would need
// a chain client and are not supported here.

export const WALLET_NONCE_TTL_MS = 10 * 60_000;
/** Live nonces kept per user; asking for more retires the oldest. */
const MAX_LIVE_NONCES = 5;
export const WALLET_LINK_STATEMENT =
  "Link this wallet to your Milestone account. Milestone payouts will be sent to it.";

/** The SIWE domain (RFC 3986 authority) of this deployment, e.g. "localhost:3000". */
export const siweDomain = () => new URL(appUrl()).host;

export const walletNonceResponse = z
  .object({
    nonce: z.string(),
    issuedAt: iso,
    expiresAt: iso,
    domain: z.string(),
    uri: z.string(),
    statement: z.string(),
    chainId: z.number().int(),
    message: z.string().optional().describe("The SIWE message to sign (given ?address=)"),
  })
  .meta({ id: "WalletNonce" });
export type WalletNonceJson = z.infer<typeof walletNonceResponse>;

export async function issueWalletNonce(
  db: Db,
  p: { userId: string; address?: Address; chainId?: number; now?: Date },
): Promise<WalletNonceJson> {
  const issuedAt = p.now ?? new Date();
  const expiresAt = new Date(issuedAt.getTime() + WALLET_NONCE_TTL_MS);
  const nonce = generateSiweNonce();
  // Prune before inserting: the new nonce plus up to MAX_LIVE_NONCES - 1 older ones.
  await pruneWalletNonces(db, { userId: p.userId, now: issuedAt, keep: MAX_LIVE_NONCES - 1 });
  await createWalletNonce(db, { userId: p.userId, nonce, expiresAt });
  const fields = {
    domain: siweDomain(),
    uri: appUrl(),
    statement: WALLET_LINK_STATEMENT,
    chainId: p.chainId ?? chainByName(env().CHAIN).chain.id,
    nonce,
    issuedAt,
    expirationTime: expiresAt,
    version: "1" as const,
  };
  const message = p.address ? createSiweMessage({ ...fields, address: p.address }) : undefined;
  return {
    nonce,
    issuedAt: issuedAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
    domain: fields.domain,
    uri: fields.uri,
    statement: fields.statement,
    chainId: fields.chainId,
    ...(message ? { message } : {}),
  };
}

const badMessage = (message: string, reason: string) =>
  new AppError("invalid_request", message, { details: { reason } });

/**
 * Checks the message text itself (not the nonce's state): a SIWE message for this site and
 * `address`, with a nonce and an expiry, valid at `now`. Returns its nonce. Also used for
 * signing in with a wallet (lib/auth/siwe-sign-in.ts).
 */
export function checkSiweMessage(message: string, address: Address, now: Date): string {
  const fields = parseSiweMessage(message);
  if (!fields.address || !fields.nonce || !fields.expirationTime)
    throw badMessage(
      "The message must be a Sign-In with Ethereum message with a nonce and an expiration time.",
      "message_malformed",
    );
  const domain = siweDomain();
  if (fields.domain !== domain)
    throw badMessage(`The message must be for ${domain}.`, "message_domain_mismatch");
  if (!isAddressEqual(fields.address, address))
    throw badMessage("The message names a different address.", "message_address_mismatch");
  if (!validateSiweMessage({ message: fields, address, domain, time: now }))
    throw badMessage("The message has expired or is not valid yet.", "message_expired");
  return fields.nonce;
}

async function nonceProblem(
  db: DbOrTx,
  userId: string,
  nonce: string,
  now: Date,
): Promise<AppError> {
  const row = await getWalletNonce(db, { userId, nonce });
  if (!row) return badMessage("Unknown nonce: request a new one.", "nonce_unknown");
  if (row.usedAt)
    return badMessage("This nonce was already used: request a new one.", "nonce_used");
  if (row.expiresAt <= now)
    return badMessage("This nonce has expired: request a new one.", "nonce_expired");
  return badMessage("The nonce cannot be used.", "nonce_invalid");
}

/** Throws 401 invalid_signature unless `signature` is `address`'s (EOA) over `message`. */
export async function verifyWalletSignature(p: {
  address: Address;
  message: string;
  signature: `0x${string}`;
}): Promise<void> {
  const valid = await verifyMessage({
    address: p.address,
    message: p.message,
    signature: p.signature,
  }).catch(() => false);
  if (!valid)
    throw new AppError(
      "invalid_signature",
      "The signature does not match the address and message.",
    );
}

const walletTaken = () =>
  new AppError("wallet_taken", "This wallet is already linked to another account.");

/**
 * Links `address` to the user after checking the message, the signature and the nonce.
 * The nonce is consumed in the same transaction that sets the wallet: a failure leaves it
 * unused, and of two concurrent uses exactly one succeeds.
 */
export async function linkWallet(
  db: Db,
  p: { userId: string; address: Address; message: string; signature: `0x${string}`; now?: Date },
): Promise<User> {
  const now = p.now ?? new Date();
  const nonce = checkSiweMessage(p.message, p.address, now);
  await verifyWalletSignature(p);
  const holder = await findUserIdByWallet(db, p.address);
  if (holder && holder !== p.userId) throw walletTaken();
  try {
    return await db.transaction(async (tx) => {
      if (!(await consumeWalletNonce(tx, { userId: p.userId, nonce, now })))
        throw await nonceProblem(tx, p.userId, nonce, now);
      const user = await setUserWallet(tx, {
        userId: p.userId,
        walletAddress: p.address,
        source: "signature",
      });
      if (!user) throw new AppError("invalid_token", "The session's user no longer exists.");
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err, WALLET_UNIQUE_INDEX)) throw walletTaken();
    throw err;
  }
}
