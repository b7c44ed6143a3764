import { spawn } from "node:child_process";
import { type Address, getAddress } from "viem";
import { baseSepolia } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestoneEscrowAbi, reputationRegistryAbi } from "@/contracts/artifacts";
import { mockUsdcBytecode } from "@/contracts/artifacts/bytecode";
import { type AnvilInstance, devAccount, devAccountKey, startAnvil } from "@/lib/chain/anvil";
import { makePublicClient, makeWalletClient } from "@/lib/chain/clients";

// scripts/deploy-contracts.ts against a throwaway anvil that says it is Base Sepolia
// (chain id 84532), reached through --rpc-url.

const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

let node: AnvilInstance;
beforeAll(async () => {
  node = await startAnvil({ chainId: 84_532 });
  // The escrow is bound to the chain's USDC and the script refuses an address without code:
  // put a token's code where Base Sepolia's USDC lives.
  const config = { chain: baseSepolia, rpcUrl: node.rpcUrl };
  const client = makePublicClient(config);
  const hash = await makeWalletClient(config, devAccountKey(9)).deployContract({
    abi: [],
    bytecode: mockUsdcBytecode,
  });
  const { contractAddress } = await client.waitForTransactionReceipt({ hash });
  const code = contractAddress && (await client.getCode({ address: contractAddress }));
  await client.request({
    method: "anvil_setCode" as never,
    params: [BASE_SEPOLIA_USDC, code] as never,
  });
});
afterAll(() => node?.stop());

function deploy(argv: string[], extraEnv: Record<string, string | undefined> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env = {
      ...process.env,
      CHAIN: undefined,
      RPC_URL: undefined,
      USDC_ADDRESS: undefined,
      REPUTATION_REGISTRY_ADDRESS: undefined,
      ESCROW_ADDRESS: undefined,
      ...extraEnv,
    };
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/deploy-contracts.ts", ...argv],
      { env },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const envLine = (stdout: string, name: string) =>
  new RegExp(`^${name}=(.*)$`, "m").exec(stdout)?.[1];

describe("npm run contracts:deploy", { timeout: 60_000 }, () => {
  it("deploys the registry, owned by the deployer, with the chosen attestor, and prints the env", async () => {
    const deployer = devAccount(7).address;
    const attestor = devAccount(8).address;
    const res = await deploy(
      ["--chain", "base-sepolia", "--rpc-url", node.rpcUrl, "--attestor", attestor.toLowerCase()],
      { TREASURY_PRIVATE_KEY: devAccountKey(7) },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(envLine(res.stdout, "CHAIN")).toBe("base-sepolia");
    expect(res.stdout).toContain("USDC_ADDRESS=0x036CbD53842c5426634e7929541eC2318f3dCF7e");
    expect(res.stderr).toContain("https://sepolia.basescan.org/tx/0x");
    const registry = envLine(res.stdout, "REPUTATION_REGISTRY_ADDRESS") as Address;
    expect(registry).toBe(getAddress(registry));

    const client = makePublicClient({ chain: baseSepolia, rpcUrl: node.rpcUrl });
    expect(await client.getCode({ address: registry })).toMatch(/^0x[0-9a-f]{100,}/);
    const read = (functionName: "attestor" | "owner") =>
      client.readContract({ address: registry, abi: reputationRegistryAbi, functionName });
    expect(await read("attestor")).toBe(attestor);
    expect(await read("owner")).toBe(deployer);

    const escrow = envLine(res.stdout, "ESCROW_ADDRESS") as Address;
    expect(escrow).toBe(getAddress(escrow));
    expect(
      await client.readContract({ address: escrow, abi: milestoneEscrowAbi, functionName: "usdc" }),
    ).toBe(BASE_SEPOLIA_USDC);
  });

  it("the attestor defaults to the treasury; --only deploys one contract (escrow: on USDC_ADDRESS when set)", async () => {
    const base = ["--chain", "base-sepolia", "--rpc-url", node.rpcUrl];
    // Different deployers, so the two runs' nonces cannot collide.
    const [registryOnly, escrowOnly] = await Promise.all([
      deploy([...base, "--only", "registry"], { TREASURY_PRIVATE_KEY: devAccountKey(6) }),
      deploy([...base, "--only", "escrow"], {
        TREASURY_PRIVATE_KEY: devAccountKey(5),
        USDC_ADDRESS: BASE_SEPOLIA_USDC.toLowerCase(),
      }),
    ]);
    expect(registryOnly.code, registryOnly.stderr).toBe(0);
    expect(envLine(registryOnly.stdout, "ESCROW_ADDRESS")).toBeUndefined();
    const registry = envLine(registryOnly.stdout, "REPUTATION_REGISTRY_ADDRESS") as Address;
    const client = makePublicClient({ chain: baseSepolia, rpcUrl: node.rpcUrl });
    expect(
      await client.readContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "attestor",
      }),
    ).toBe(devAccount(6).address);

    expect(escrowOnly.code, escrowOnly.stderr).toBe(0);
    expect(envLine(escrowOnly.stdout, "REPUTATION_REGISTRY_ADDRESS")).toBeUndefined();
    expect(envLine(escrowOnly.stdout, "USDC_ADDRESS")).toBe(BASE_SEPOLIA_USDC);
    const escrow = envLine(escrowOnly.stdout, "ESCROW_ADDRESS") as Address;
    expect(
      await client.readContract({ address: escrow, abi: milestoneEscrowAbi, functionName: "usdc" }),
    ).toBe(BASE_SEPOLIA_USDC);
  });

  it("refuses the local chain, a mismatched RPC, a mainnet without --allow-mainnet, no key, a USDC without code, a bad --only", async () => {
    const key = { TREASURY_PRIVATE_KEY: devAccountKey(6) };
    const base = ["--chain", "base-sepolia", "--rpc-url", node.rpcUrl];
    const [local, wrongChain, mainnet, noKey, noCode, badOnly] = await Promise.all([
      deploy(["--chain", "local"], key),
      deploy(["--chain", "sepolia", "--rpc-url", node.rpcUrl], key),
      deploy(["--chain", "base", "--rpc-url", node.rpcUrl], key),
      deploy(["--chain", "base-sepolia", "--rpc-url", node.rpcUrl], {
        TREASURY_PRIVATE_KEY: undefined,
      }),
      deploy(base, { ...key, USDC_ADDRESS: devAccount(3).address }),
      deploy([...base, "--only", "token"], key),
    ]);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain("npm run dev");
    expect(wrongChain.code).toBe(2);
    expect(wrongChain.stderr).toContain("serves chain 84532");
    expect(mainnet.code).toBe(2);
    expect(mainnet.stderr).toContain("--allow-mainnet");
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("TREASURY_PRIVATE_KEY");
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toContain("no contract at USDC");
    expect(badOnly.code).toBe(2);
    expect(badOnly.stderr).toContain("--only");
    for (const r of [local, wrongChain, mainnet, noKey, noCode, badOnly]) expect(r.stdout).toBe("");
  });
});
