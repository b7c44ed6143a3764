import { ECDH } from "node:crypto";
import { type Address, getAddress, isAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";

// Reading e-mail and wallet out of a verified token's claims. Providers differ:
// - a plain string claim (`wallet_address`, `wallet`, or an Auth0-style namespaced URL);
// - Web3Auth's `wallets` list: `{ type: "ethereum", address }` for external wallets,
//   `{ type: "web3auth_app_key", curve: "secp256k1", public_key }` for social logins,
//   whose EVM address is derived from the (compressed) public key.
// The claim names come from configuration (IDP_EMAIL_CLAIM, IDP_WALLET_CLAIM).

/** The claim `name`: an exact key first (URLs contain dots), else a dotted path. */
export function claimValue(payload: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(payload, name)) return payload[name];
  if (!name.includes(".")) return undefined;
  let value: unknown = payload;
  for (const part of name.split(".")) {
    if (!value || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const emailPattern = /^[^\s@]+@[^\s@]+$/;

/** A plausible e-mail address (trimmed), or null. */
export function emailFrom(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const email = value.trim();
  return email.length <= 320 && emailPattern.test(email) ? email : null;
}

function addressFromString(value: string): Address | null {
  return isAddress(value, { strict: false }) ? getAddress(value) : null;
}

function addressFromSecp256k1PublicKey(hex: string): Address | null {
  const key = hex.replace(/^0x/i, "");
  if (!/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(key)) return null;
  try {
    const uncompressed = ECDH.convertKey(key, "secp256k1", "hex", "hex", "uncompressed");
    return publicKeyToAddress(`0x${uncompressed as string}`);
  } catch {
    return null;
  }
}

function addressFromWalletEntry(entry: unknown, derive: boolean): Address | null {
  if (typeof entry === "string") return addressFromString(entry);
  if (!entry || typeof entry !== "object") return null;
  const w = entry as Record<string, unknown>;
  if (typeof w.address === "string") return addressFromString(w.address);
  // Only the app-scoped key is the user's own EVM account; threshold keys are not.
  if (derive && w.type === "web3auth_app_key" && w.curve === "secp256k1")
    return typeof w.public_key === "string" ? addressFromSecp256k1PublicKey(w.public_key) : null;
  return null;
}

/**
 * The EVM wallet in a wallet claim (EIP-55 checksummed), or null when there is none or it
 * is not an EVM address. In a list, an explicit address wins over a derived one.
 */
export function walletFrom(value: unknown): Address | null {
  if (!Array.isArray(value)) return addressFromWalletEntry(value, true);
  for (const entry of value) {
    const address = addressFromWalletEntry(entry, false);
    if (address) return address;
  }
  for (const entry of value) {
    const address = addressFromWalletEntry(entry, true);
    if (address) return address;
  }
  return null;
}
