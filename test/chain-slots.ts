import type { Hex } from "viem";
import type { LocalDeployment } from "@/lib/chain/deploy";
import { devAccountKey } from "@/lib/chain/dev-accounts";

// The shared anvil of a test run is split into worker slots (VITEST_POOL_ID, 1..maxWorkers):
// slot k signs with anvil accounts 2k (treasury: deployer, owner, attestor) and 2k+1 (relay
// sponsor), so files running in parallel never share a nonce, and each slot has one
// deployment of the contracts, made once per run by test/global-setup.ts and handed to the
// workers in TEST_CHAIN_SLOTS. Nothing here snapshots or reverts the shared node: that would
// undo the other slots' work.

export const SLOTS_ENV = "TEST_CHAIN_SLOTS";

export function slotKeys(slot: number): { treasuryKey: Hex; sponsorKey: Hex } {
  return { treasuryKey: devAccountKey(2 * slot), sponsorKey: devAccountKey(2 * slot + 1) };
}

/** Where each address of a local deployment goes in the environment (lib/env). */
const ADDRESS_ENV: Record<string, string> = {
  usdc: "USDC_ADDRESS",
  registry: "REPUTATION_REGISTRY_ADDRESS",
  escrow: "ESCROW_ADDRESS",
  depositFactory: "DEPOSIT_FACTORY_ADDRESS",
};

/**
 * The environment for a deployment: every contract address it has. An address field this
 * table does not know is an error, so a new contract cannot be silently left out.
 */
export function deploymentEnv(d: LocalDeployment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(d)) {
    if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) continue;
    const name = ADDRESS_ENV[field];
    if (!name)
      throw new Error(`test/chain-slots.ts: no environment variable for deployment.${field}`);
    out[name] = value;
  }
  return out;
}
