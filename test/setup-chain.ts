import { resetChainConfigCache } from "@/lib/chain/config";
import { deployFundedContracts } from "@/lib/chain/deploy";
import { resetEnvCache } from "@/lib/env";
import { deploymentEnv, SLOTS_ENV, slotKeys } from "./chain-slots";

// Runs before each integration test file (vitest setupFiles; no network call on the usual
// path). Points the file at its worker slot's keys and at the contracts test/global-setup.ts
// deployed for that slot on the shared anvil (see test/chain-slots.ts). Files of one slot
// run one after another, so they share that deployment: tests that measure balances use
// fresh wallets of their own, and never assume a contract fresh for their file.
const slot = Number(process.env.VITEST_POOL_ID ?? "1");
const { treasuryKey, sponsorKey } = slotKeys(slot);
const rpcUrl = process.env.RPC_URL;
if (!rpcUrl) throw new Error("RPC_URL is not set: test/global-setup.ts starts anvil");

let addresses = (
  JSON.parse(process.env[SLOTS_ENV] ?? "{}") as Record<string, Record<string, string>>
)[slot];
if (!addresses) {
  // More workers than the global set-up planned for: deploy for this file, as a fallback.
  addresses = deploymentEnv(await deployFundedContracts({ rpcUrl, treasuryKey }));
}

process.env.TREASURY_PRIVATE_KEY = treasuryKey;
process.env.RELAY_SPONSOR_PRIVATE_KEY = sponsorKey;
Object.assign(process.env, addresses);
resetEnvCache();
resetChainConfigCache();
