import { resetChainConfigCache } from "@/lib/chain/config";
import { resetEnvCache } from "@/lib/env";

// Points this test file's process at other chain settings (another anvil, a mainnet name,
// a proxy RPC) and back. Both caches are reset: lib/env and lib/chain/config (which also
// holds the read client).

export type ChainEnv = Partial<
  Record<
    "CHAIN" | "RPC_URL" | "USDC_ADDRESS" | "REPUTATION_REGISTRY_ADDRESS" | "TREASURY_PRIVATE_KEY",
    string | undefined
  >
>;

export function setChainEnv(vars: ChainEnv): () => void {
  const saved: ChainEnv = {};
  for (const [k, v] of Object.entries(vars) as Array<[keyof ChainEnv, string | undefined]>) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
  resetChainConfigCache();
  return () => {
    for (const [k, v] of Object.entries(saved) as Array<[keyof ChainEnv, string | undefined]>) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
    resetChainConfigCache();
  };
}

export async function withChainEnv<T>(vars: ChainEnv, fn: () => Promise<T>): Promise<T> {
  const restore = setChainEnv(vars);
  try {
    return await fn();
  } finally {
    restore();
  }
}
