import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { type AnvilInstance, startAnvil } from "@/lib/chain/anvil";
import { resetChainConfigCache } from "@/lib/chain/config";
import { deployFundedContracts } from "@/lib/chain/deploy";
import { resetEnvCache } from "@/lib/env";

// Points this test file's process at other chain settings (another anvil, a mainnet name,
// a proxy RPC) and back. Both caches are reset: lib/env and lib/chain/config (which also
// holds the read client).

export type ChainEnv = Partial<
  Record<
    | "CHAIN"
    | "RPC_URL"
    | "USDC_ADDRESS"
    | "REPUTATION_REGISTRY_ADDRESS"
    | "ESCROW_ADDRESS"
    | "DEPOSIT_FACTORY_ADDRESS"
    | "TREASURY_PRIVATE_KEY"
    | "RELAY_SPONSOR_PRIVATE_KEY"
    | "TX_RECEIPT_TIMEOUT_SECONDS"
    | "RELAY_PROVIDER"
    | "RELAY_API_URL"
    | "RELAY_API_KEY"
    | "RPC_FALLBACK_URLS"
    | "TX_REPLACE_AFTER_SECONDS"
    | "TX_MAX_FEE_GWEI"
    | "TX_STUCK_ALERT_SECONDS"
    | "CHAIN_CONFIRMATIONS"
    | "LOG_RANGE_BLOCKS"
    | "CHAIN_BUDGET_SECONDS",
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

/**
 * A chain of this test file's own: a fresh anvil (optionally with a state file, so it can
 * be stopped and restarted; with `blockTime`, a block every that many seconds as on a real
 * chain instead of one per transaction; with `genesisNumber`, a long history behind its
 * first block), new treasury and relay-sponsor keys funded with gas, and the contracts
 * deployed and funded by the treasury.
 */
/** A JSON-RPC call to an anvil of a test's own (evm_setAutomine, evm_mine, …). */
export async function anvilRpc(rpcUrl: string, method: string, params: unknown[] = []) {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

export async function startOwnChain(
  opts: { chainId?: number; stateFile?: string; blockTime?: number; genesisNumber?: number } = {},
) {
  const anvil = await startAnvil({
    port: 0,
    chainId: opts.chainId,
    stateFile: opts.stateFile,
    blockTime: opts.blockTime,
    genesisNumber: opts.genesisNumber,
  });
  // Fresh keys for every signer the service uses: the database may hold rows of the worker's
  // usual keys from the shared anvil, whose nonces mean nothing here (a nonce picked past
  // them would wait in this node's pool forever).
  const treasuryKey = generatePrivateKey();
  const treasury = privateKeyToAccount(treasuryKey).address;
  const sponsorKey = generatePrivateKey();
  for (const address of [treasury, privateKeyToAccount(sponsorKey).address])
    await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "anvil_setBalance",
        params: [address, toHex(10n ** 22n)],
      }),
    });
  const deployment = await deployFundedContracts({ rpcUrl: anvil.rpcUrl, treasuryKey });
  const restore = setChainEnv({
    RPC_URL: anvil.rpcUrl,
    USDC_ADDRESS: deployment.usdc,
    REPUTATION_REGISTRY_ADDRESS: deployment.registry,
    ESCROW_ADDRESS: deployment.escrow,
    DEPOSIT_FACTORY_ADDRESS: deployment.depositFactory,
    TREASURY_PRIVATE_KEY: treasuryKey,
    RELAY_SPONSOR_PRIVATE_KEY: sponsorKey,
  });
  return { anvil, deployment, treasuryKey, treasury, restore };
}

/**
 * This test file's own anvil (startOwnChain) around all of its tests, with the service's
 * receipt wait at 10 s. With `stateFile`, the node's state is kept on disk, so a test can stop
 * it (`chain.anvil.stop()`) and bring it back on the same port (`chain.restart()`).
 * `chain.anvil` is the node as it is now; `chain.rpc` calls it directly.
 */
export function ownChainForFile(opts: { stateFile?: boolean } = {}) {
  const stateFile = opts.stateFile
    ? path.join(mkdtempSync(path.join(tmpdir(), "milestone-own-chain-")), "anvil.json")
    : undefined;
  const restores: Array<() => void> = [];
  let anvil: AnvilInstance | undefined;
  const current = () => {
    if (!anvil) throw new Error("this file's own anvil is not running");
    return anvil;
  };
  beforeAll(async () => {
    const own = await startOwnChain({ stateFile });
    anvil = own.anvil;
    restores.push(own.restore, setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "10" }));
  }, 60_000);
  afterAll(async () => {
    await anvil?.stop();
    for (const restore of restores.reverse()) restore();
  });
  return {
    get anvil() {
      return current();
    },
    rpc: (method: string, params: unknown[] = []) => anvilRpc(current().rpcUrl, method, params),
    /** Starts the stopped node again, on its port, from its state file. */
    async restart() {
      if (!stateFile) throw new Error("ownChainForFile({ stateFile: true }) keeps a node's state");
      anvil = await startAnvil({ port: current().port, stateFile });
      resetChainConfigCache();
    },
  };
}
