import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import AddressPage from "@/app/explorer/address/[address]/page";
import { explorerTarget } from "@/app/explorer/local-only";
import TransactionPage from "@/app/explorer/tx/[hash]/page";
import { withChainEnv } from "../helpers/chain-env";

// The explorer pages read the node only on the local chain. Elsewhere they redirect to the
// chain's public explorer and never call the RPC, whatever the input: they must not be an
// open proxy to the deployment's (paid) RPC provider. The node here is a counting proxy
// in front of the test anvil.

let rpc: { url: string; calls: () => number; close: () => Promise<void> };

beforeAll(async () => {
  const target = process.env.RPC_URL as string;
  let calls = 0;
  const server: Server = createServer(async (req, res) => {
    calls++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  rpc = {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});

afterAll(() => rpc.close());

const hash = `0x${"ab".repeat(32)}`;
const address = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";
const checksummed = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

/** The URL a page redirected to (Next's redirect() throws), or null if it rendered. */
async function redirectOf(render: () => Promise<unknown>): Promise<string | null> {
  try {
    await render();
    return null;
  } catch (err) {
    const digest = (err as { digest?: string }).digest ?? "";
    if (!digest.startsWith("NEXT_REDIRECT")) throw err;
    return digest.split(";")[2] ?? null;
  }
}

const txPage = (h: string) => () => TransactionPage({ params: Promise.resolve({ hash: h }) });
const addressPage = (a: string) => () => AddressPage({ params: Promise.resolve({ address: a }) });

describe("explorer pages off the local chain", () => {
  it.each([
    ["base-sepolia", "https://sepolia.basescan.org"],
    ["base", "https://basescan.org"],
    ["arc-testnet", "https://testnet.arcscan.app"],
  ])("on %s they redirect to %s and never call the RPC", async (chain, explorer) => {
    await withChainEnv({ CHAIN: chain, RPC_URL: rpc.url }, async () => {
      const before = rpc.calls();
      expect(await redirectOf(txPage(hash))).toBe(`${explorer}/tx/${hash}`);
      expect(await redirectOf(addressPage(address))).toBe(`${explorer}/address/${checksummed}`);
      // Input that is not a hash or an address is refused on the spot, not redirected.
      expect(await redirectOf(txPage("0x1234"))).toBeNull();
      expect(await redirectOf(addressPage("../../admin"))).toBeNull();
      expect(rpc.calls()).toBe(before);
    });
  });

  it("explorerTarget: invalid input never reaches a chain decision", () => {
    expect(explorerTarget("tx", "0xnothex")).toEqual({ kind: "invalid" });
    expect(explorerTarget("address", `${address}00`)).toEqual({ kind: "invalid" });
  });
});

describe("explorer pages on the local chain", () => {
  it("read the node (there is no public explorer)", async () => {
    await withChainEnv({ CHAIN: "local", RPC_URL: rpc.url }, async () => {
      expect(explorerTarget("tx", hash.toUpperCase().replace("0X", "0x"))).toEqual({
        kind: "local",
        value: hash,
      });
      const before = rpc.calls();
      expect(await redirectOf(txPage(hash))).toBeNull();
      expect(rpc.calls()).toBeGreaterThan(before);
    });
  });
});
