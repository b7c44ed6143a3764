import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Address, type Hex, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import * as dealsRoute from "@/app/api/deals/route";
import * as testUsdcRoute from "@/app/api/faucet/test-usdc/route";
import * as keysRoute from "@/app/api/keys/route";
import { approveAndFund, gaslessModule } from "@/components/docs/funding-snippet";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { dealKey } from "@/lib/escrow/onchain";
import { inProcessFetch } from "../api/in-process-fetch";
import { call } from "../helpers/http";
import { makeUser } from "../helpers/users";
import { usdcBalance } from "../settle/fixtures";

// The gasless example /docs prints (components/docs/funding-snippet.ts), run as an integrator
// would run it: a fresh dev key with test USDC from the local faucet, an API key with the read
// and settle scopes, and the example's own fetch calls answered by the real route handlers.
// If the typed data, the nonce derivation or the POST body drift from what the server and the
// escrow verify, the deal does not open and this fails.

const dir = path.resolve("node_modules/.cache/milestone-docs");
const file = path.join(dir, `fund-gasless-${randomUUID()}.ts`);
const BASE = "http://milestone.test";

afterAll(() => rmSync(file, { force: true }));

describe("the /docs gasless funding example", () => {
  it("funds a deal with a dev key, exactly as printed", async () => {
    const brand = await makeUser("organization");
    const created = await call(dealsRoute.POST, {
      token: brand.token,
      body: {
        title: "Docs example",
        platform: "instagram",
        milestones: [{ title: "Post", amount: 7 }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const dealId = created.body.deal.id as string;
    const key = await call(keysRoute.POST, {
      path: "/api/keys",
      token: brand.token,
      body: { name: "docs example", scopes: ["read", "settle"] },
    });
    expect(key.status).toBe(201);

    const privateKey = generatePrivateKey();
    const wallet = privateKeyToAccount(privateKey).address;
    const funds = await call(testUsdcRoute.POST, { token: brand.token, body: { address: wallet } });
    expect(funds.status, JSON.stringify(funds.body)).toBe(200);
    const before = await usdcBalance(wallet);

    mkdirSync(dir, { recursive: true });
    writeFileSync(file, gaslessModule);
    const { fundGasless } = (await import(/* @vite-ignore */ file)) as {
      fundGasless: (o: {
        baseUrl: string;
        apiKey: string;
        dealId: string;
        privateKey: Hex;
      }) => Promise<{ status: string; escrow: { funded: boolean; brandWallet: string } }>;
    };

    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input).startsWith(BASE)
        ? inProcessFetch(input, init)
        : realFetch(input, init)) as typeof fetch;
    let deal: Awaited<ReturnType<typeof fundGasless>>;
    try {
      deal = await fundGasless({ baseUrl: BASE, apiKey: key.body.key, dealId, privateKey });
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(deal.status).toBe("open");
    expect(deal.escrow).toMatchObject({ funded: true, brandWallet: wallet });

    // On-chain: the escrow holds the deal under the signer's key; the signer paid 7 USDC.
    expect(await usdcBalance(wallet)).toBe(before - 7_000_000n);
    const onChain = await publicClient().readContract({
      address: chainConfig().escrow as Address,
      abi: milestoneEscrowAbi,
      functionName: "getDeal",
      args: [dealKey(wallet, dealId)],
    });
    expect(onChain[0]).toBe(wallet); // the brand the escrow records
  });

  it("the approve + fund example calls the escrow's own fund()", () => {
    const signature = /"(function fund\([^"]+\))"/.exec(approveAndFund)?.[1];
    const [printed] = parseAbi([signature as string]) as unknown as [
      { name: string; inputs: { type: string }[] },
    ];
    const real = milestoneEscrowAbi.find((x) => x.type === "function" && x.name === "fund") as {
      inputs: readonly { type: string }[];
    };
    expect(printed.name).toBe("fund");
    expect(printed.inputs.map((i) => i.type)).toEqual(real.inputs.map((i) => i.type));
  });
});
