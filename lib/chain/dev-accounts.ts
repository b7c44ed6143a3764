import { type Hex, toHex } from "viem";
import { mnemonicToAccount, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";

// Anvil's well-known dev accounts. Kept apart from anvil.ts (which spawns processes) so
// server code can use the local chain's default keys without pulling in child_process.

/** Anvil's default mnemonic; its accounts are funded with 10,000 ETH on every fresh node. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";

const keyCache = new Map<number, Hex>();

/** Private key of anvil dev account `index` (m/44'/60'/0'/0/index of DEV_MNEMONIC). */
export function devAccountKey(index: number): Hex {
  let key = keyCache.get(index);
  if (!key) {
    const raw = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
    if (!raw) throw new Error(`could not derive dev account ${index}`);
    key = toHex(raw);
    keyCache.set(index, key);
  }
  return key;
}

export function devAccount(index: number): PrivateKeyAccount {
  return privateKeyToAccount(devAccountKey(index));
}
