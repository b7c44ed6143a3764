import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Address } from "viem";
import { anvil as anvilChain } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockUsdcAbi } from "@/contracts/artifacts";
import {
  type AnvilInstance,
  DEV_MNEMONIC,
  devAccount,
  devAccountKey,
  rpcAnswers,
  startAnvil,
} from "@/lib/chain/anvil";
import { makePublicClient, makeWalletClient } from "@/lib/chain/clients";
import { DEFAULT_TREASURY_FUNDING, ensureLocalDeployment } from "@/lib/chain/deploy";

let dir: string;
const started: AnvilInstance[] = [];

async function start(stateFile?: string): Promise<AnvilInstance> {
  const node = await startAnvil({ stateFile });
  started.push(node);
  return node;
}

const treasury = devAccount(0).address;
const ensure = (rpcUrl: string, deploymentFile: string, attestor: Address = treasury) =>
  ensureLocalDeployment({ rpcUrl, deploymentFile, deployerKey: devAccountKey(0), attestor });

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "milestone-anvil-"));
});

afterEach(async () => {
  for (const node of started.splice(0)) await node.stop();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("dev accounts", () => {
  it("derive anvil's well-known keys from the default mnemonic", () => {
    expect(DEV_MNEMONIC).toBe("test test test test test test test test test test test junk");
    expect(devAccountKey(0)).toBe(
      "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    );
    expect(devAccount(0).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(devAccount(1).address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  });
});

describe("startAnvil", () => {
  it("starts on a free port, answers, and is gone after stop()", async () => {
    const node = await start();
    expect(node.port).toBeGreaterThan(0);
    expect(node.rpcUrl).toBe(`http://127.0.0.1:${node.port}`);
    expect(await rpcAnswers(node.rpcUrl)).toBe(true);
    const client = makePublicClient({ chain: anvilChain, rpcUrl: node.rpcUrl });
    expect(await client.getChainId()).toBe(31_337);
    expect(await client.getBalance({ address: treasury })).toBe(10_000n * 10n ** 18n);

    await node.stop();
    await node.stop(); // idempotent
    expect(await rpcAnswers(node.rpcUrl)).toBe(false);
    expect(() => process.kill(node.pid, 0)).toThrow();
  });

  it("fails with anvil's own error when the port is taken", async () => {
    const node = await start();
    await expect(startAnvil({ port: node.port })).rejects.toThrow(/Address already in use/);
    expect(await rpcAnswers(node.rpcUrl)).toBe(true); // the first node is unaffected
  });
});

describe("persistence with stateFile", () => {
  it("keeps contracts, balances and blocks across a restart, and does not redeploy", async () => {
    const stateFile = path.join(dir, "persist", "anvil-state.json");
    const deploymentFile = path.join(dir, "persist", "deployments", "local.json");

    const first = await start(stateFile);
    const deployed = await ensure(first.rpcUrl, deploymentFile);
    expect(deployed.deployed).toBe(true);
    expect(deployed.chainId).toBe(31_337);
    expect(JSON.parse(readFileSync(deploymentFile, "utf8"))).toMatchObject({
      chainId: 31_337,
      usdc: deployed.usdc,
      registry: deployed.registry,
      deployBlock: Number(deployed.deployBlock),
    });

    // A transfer after deployment, so the saved state holds more than the deploy itself.
    const bob = devAccount(2).address;
    const config = { chain: anvilChain, rpcUrl: first.rpcUrl };
    const pub1 = makePublicClient(config);
    const hash = await makeWalletClient(config, devAccountKey(0)).writeContract({
      address: deployed.usdc,
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [bob, 42n],
    });
    await pub1.waitForTransactionReceipt({ hash });
    const blockBefore = await pub1.getBlock();

    // Second call on the same node reuses the deployment.
    expect((await ensure(first.rpcUrl, deploymentFile)).deployed).toBe(false);

    await first.stop(); // SIGTERM: anvil writes the state file while exiting
    expect(existsSync(stateFile)).toBe(true);
    const dumped = JSON.parse(readFileSync(stateFile, "utf8")) as {
      accounts: Record<string, unknown>;
    };
    expect(Object.keys(dumped.accounts)).toContain(deployed.usdc.toLowerCase());

    const second = await start(stateFile);
    expect(second.port).not.toBe(0);
    const again = await ensure(second.rpcUrl, deploymentFile);
    expect(again).toEqual({ ...deployed, deployed: false });

    const pub2 = makePublicClient({ chain: anvilChain, rpcUrl: second.rpcUrl });
    expect(await pub2.getCode({ address: deployed.usdc })).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(await pub2.getCode({ address: deployed.registry })).toMatch(/^0x[0-9a-f]{100,}$/);
    const balanceOf = (who: Address) =>
      pub2.readContract({
        address: deployed.usdc,
        abi: mockUsdcAbi,
        functionName: "balanceOf",
        args: [who],
      });
    expect(await balanceOf(bob)).toBe(42n);
    expect(await balanceOf(treasury)).toBe(DEFAULT_TREASURY_FUNDING - 42n);
    const blockAfter = await pub2.getBlock();
    expect(blockAfter.number).toBe(blockBefore.number);
    expect(blockAfter.hash).toBe(blockBefore.hash);

    // The restored chain keeps going: nonces continue and new blocks are not older than old ones.
    const hash2 = await makeWalletClient(
      { chain: anvilChain, rpcUrl: second.rpcUrl },
      devAccountKey(0),
    ).writeContract({
      address: deployed.usdc,
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [bob, 1n],
    });
    const receipt = await pub2.waitForTransactionReceipt({ hash: hash2 });
    expect(receipt.status).toBe("success");
    expect(receipt.blockNumber).toBe(blockBefore.number + 1n);
    expect((await pub2.getBlock()).timestamp).toBeGreaterThanOrEqual(blockBefore.timestamp);
  });

  it("redeploys on a fresh node, after a contract rebuild, or for another attestor", async () => {
    const deploymentFile = path.join(dir, "fresh", "local.json");
    const a = await start();
    const original = await ensure(a.rpcUrl, deploymentFile);
    expect(original.deployed).toBe(true);
    await a.stop();

    // A fresh node (no state) has no code at the recorded addresses.
    const b = await start();
    const onFresh = await ensure(b.rpcUrl, deploymentFile);
    expect(onFresh.deployed).toBe(true);
    const pub = makePublicClient({ chain: anvilChain, rpcUrl: b.rpcUrl });
    expect(
      await pub.readContract({
        address: onFresh.usdc,
        abi: mockUsdcAbi,
        functionName: "balanceOf",
        args: [treasury],
      }),
    ).toBe(DEFAULT_TREASURY_FUNDING);

    // Different compiled contracts than the recorded ones.
    const recorded = JSON.parse(readFileSync(deploymentFile, "utf8")) as Record<string, unknown>;
    writeFileSync(deploymentFile, JSON.stringify({ ...recorded, artifactsHash: "0xold" }));
    const rebuilt = await ensure(b.rpcUrl, deploymentFile);
    expect(rebuilt.deployed).toBe(true);
    expect(rebuilt.usdc).not.toBe(onFresh.usdc);

    // Another attestor than the deployed registry's.
    const other = await ensure(b.rpcUrl, deploymentFile, devAccount(5).address);
    expect(other.deployed).toBe(true);
    expect((await ensure(b.rpcUrl, deploymentFile, devAccount(5).address)).deployed).toBe(false);

    // A corrupt file is treated as absent.
    writeFileSync(deploymentFile, "{ not json");
    expect((await ensure(b.rpcUrl, deploymentFile, devAccount(5).address)).deployed).toBe(true);
  });

  it("skips treasury funding when fundTreasury is null", async () => {
    const node = await start();
    const d = await ensureLocalDeployment({
      rpcUrl: node.rpcUrl,
      deploymentFile: path.join(dir, "nofund", "local.json"),
      deployerKey: devAccountKey(0),
      attestor: treasury,
      fundTreasury: null,
    });
    const pub = makePublicClient({ chain: anvilChain, rpcUrl: node.rpcUrl });
    expect(
      await pub.readContract({ address: d.usdc, abi: mockUsdcAbi, functionName: "totalSupply" }),
    ).toBe(0n);
  });
});
