import { createClient } from "@milestone/client";
import { type Address, HttpRequestError, hashDomain } from "viem";
import { describe, expect, it } from "vitest";
import * as chainRoute from "@/app/api/chain/route";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { chainConfig, publicClient } from "@/lib/chain/config";
import {
  type ContractReader,
  chainInfoResponse,
  readTokenDomain,
} from "@/lib/chain/integrator-info";
import { publicChainInfo } from "@/lib/chain/public-info";
import { endpoints } from "@/lib/openapi";
import { call } from "../helpers/http";
import { inProcessFetch } from "./in-process-fetch";

// GET /api/chain (issue 27): what an integrator needs to sign a funding without scraping the
// wallet page or the CSP header — public, the browser's RPC URL, and USDC's EIP-712 domain as
// the token itself reports it.

describe("GET /api/chain", () => {
  it("answers without a credential, as documented, with the token's own EIP-712 domain", async () => {
    const res = await call(chainRoute.GET, { path: "/api/chain" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const documented = endpoints.find((e) => e.method === "GET" && e.path === "/api/chain");
    expect(documented?.responseSchema).toBe(chainInfoResponse);
    const parsed = chainInfoResponse.parse(res.body);
    expect(parsed).toEqual(res.body); // nothing undocumented

    const config = chainConfig();
    expect(res.body).toEqual({
      chainId: config.chainId,
      name: "local",
      rpcUrl: publicChainInfo().rpcUrl,
      usdc: config.usdc,
      escrow: config.escrow,
      usdcDomain: { name: "USDC", version: "2" },
      confirmations: 1,
    });
    // The domain is the one the token verifies signatures under: its separator matches.
    const separator = await publicClient().readContract({
      address: config.usdc as Address,
      abi: mockUsdcAbi,
      functionName: "DOMAIN_SEPARATOR",
    });
    expect(
      hashDomain({
        domain: {
          ...res.body.usdcDomain,
          chainId: res.body.chainId,
          verifyingContract: res.body.usdc,
        },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    ).toBe(separator);
  });

  it("the typed client reads it", async () => {
    const api = createClient({
      baseUrl: "http://localhost",
      apiKey: "unused",
      fetch: inProcessFetch,
    });
    const info = await api.getChainInfo();
    expect(info.chainId).toBe(chainConfig().chainId);
    expect(info.usdcDomain).toEqual({ name: "USDC", version: "2" });
  });
});

describe("reading a token's EIP-712 domain", () => {
  const token = "0x00000000000000000000000000000000000000aa" as Address;
  /** A token answering only the functions given (a revert for the others). */
  const tokenWith = (answers: Record<string, unknown>): ContractReader & { calls: string[] } => {
    const calls: string[] = [];
    return {
      calls,
      readContract: async ({ functionName }) => {
        calls.push(functionName);
        if (functionName in answers) return answers[functionName];
        throw new Error(`execution reverted: ${functionName}`);
      },
    };
  };

  it("ERC-5267 eip712Domain() first", async () => {
    const reader = tokenWith({
      eip712Domain: ["0x0f", "USD Coin", "2", 8453n, token, `0x${"0".repeat(64)}`, []],
      name: "ignored",
    });
    expect(await readTokenDomain(reader, token)).toEqual({ name: "USD Coin", version: "2" });
    expect(reader.calls).toEqual(["eip712Domain"]);
  });

  it("else name() and version(), as Circle's FiatToken has them", async () => {
    const reader = tokenWith({ name: "USD Coin", version: "2" });
    expect(await readTokenDomain(reader, token)).toEqual({ name: "USD Coin", version: "2" });
  });

  it("a token with neither is a configuration error; a node that does not answer is a 502", async () => {
    await expect(readTokenDomain(tokenWith({ name: "X" }), token)).rejects.toMatchObject({
      code: "not_configured",
    });
    const down: ContractReader = {
      readContract: async () => {
        throw new HttpRequestError({ url: "http://127.0.0.1:1", details: "connection refused" });
      },
    };
    await expect(readTokenDomain(down, token)).rejects.toMatchObject({
      code: "chain_unavailable",
    });
  });
});
