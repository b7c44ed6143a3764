import "server-only";
import type { Address, Hex, TypedDataDefinition } from "viem";
import type { User } from "@/db/schema";
import { devEmbeddedWalletKey, devIdpIssuer } from "@/lib/auth/dev-idp";
import { signerAccount } from "@/lib/chain/sender";
import { type Env, embeddedWalletSignerName, env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The one door to users' embedded wallets: a user who signed in without a browser wallet
// has a wallet the identity provider holds the key to (Privy, Coinbase, Web3Auth…). To move
// money out of it, the provider signs on the user's behalf. Everything in the app that needs
// such a signature goes through `EmbeddedWalletSigner`, never through a key.
//
// What is signed is EIP-712 typed data — a USDC TransferWithAuthorization (EIP-3009) — which
// the service's relayer then submits, paying the gas: the embedded wallet needs no ETH and
// sends no transaction of its own (so it has no nonce to allocate; the relayer's goes through
// signer_nonces like every other send, lib/chain/sender.ts).
//
// Implementations:
// - `dev` (below): the dev identity provider's server-held key per subject
//   (lib/auth/dev-idp.ts devEmbeddedWalletKey). Only for users that provider signed in.
// - Production: a provider connector goes here, chosen by EMBEDDED_WALLET_SIGNER. For Privy,
//   `address` is the user's embedded wallet from Privy's user API (linked_accounts, type
//   "wallet", wallet_client_type "privy") and `signTypedData` its server-wallet RPC
//   (`eth_signTypedData_v4`, with the app's authorization key); for Coinbase's CDP embedded
//   wallets, the end user's EVM account and CDP's signTypedData. Both need the user's
//   identity (issuer, subject), which the session already has.
// - None configured (`none`): `embeddedWalletSigner()` is null and sending answers
//   503 not_configured; receiving still works (the address comes in the identity token).

export type SignerUser = Pick<User, "id" | "issuer" | "subject">;

export interface EmbeddedWalletSigner {
  /** Which implementation this is (shown to operators, never secret). */
  readonly name: string;
  /** The user's embedded wallet, or null when this provider holds none for the user. */
  address(user: SignerUser): Promise<Address | null>;
  /**
   * The embedded wallet's EIP-712 signature of `typedData` (e.g. a USDC
   * TransferWithAuthorization). Refuses a user who has no embedded wallet here.
   */
  signTypedData(user: SignerUser, typedData: TypedDataDefinition): Promise<Hex>;
}

/** The dev identity provider's embedded wallets: the server derives each subject's key. */
export function devEmbeddedWalletSigner(e: Env = env()): EmbeddedWalletSigner {
  const issuer = devIdpIssuer(e);
  const keyOf = (user: SignerUser): Hex | null =>
    user.issuer === issuer ? devEmbeddedWalletKey(user.subject) : null;
  return {
    name: "dev",
    async address(user) {
      const key = keyOf(user);
      return key ? signerAccount(key).address : null;
    },
    async signTypedData(user, typedData) {
      const key = keyOf(user);
      if (!key) throw noEmbeddedWallet();
      return signerAccount(key).signTypedData(typedData);
    },
  };
}

export const noEmbeddedWallet = () =>
  new AppError(
    "wallet_required",
    "Your account has no wallet this service can send from (a wallet you connected yourself sends from your browser).",
  );

/** The configured signer, or null when none is (EMBEDDED_WALLET_SIGNER=none). */
export function embeddedWalletSigner(e: Env = env()): EmbeddedWalletSigner | null {
  switch (embeddedWalletSignerName(e)) {
    case "dev":
      return devEmbeddedWalletSigner(e);
    default:
      return null;
  }
}

/** The configured signer, or 503 not_configured. */
export function requireEmbeddedWalletSigner(e: Env = env()): EmbeddedWalletSigner {
  const signer = embeddedWalletSigner(e);
  if (!signer)
    throw new AppError(
      "not_configured",
      "Sending from a signed-in wallet is not available on this deployment (no embedded-wallet signer is configured: EMBEDDED_WALLET_SIGNER).",
    );
  return signer;
}
