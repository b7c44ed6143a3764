import { type Address, erc20Abi, getAddress } from "viem";
import { z } from "zod";
import { chainConfig, publicClient, requireEscrow, requireUsdc } from "@/lib/chain/config";
import { publicChainInfo } from "@/lib/chain/public-info";
import { chainUnavailable, isTransportError } from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";

// GET /api/chain: what an integrator needs to talk to the chain without scraping a page —
// the chain, a public RPC endpoint (the one the browser gets: never RPC_URL on a public
// chain, lib/chain/public-info.ts), the token and escrow addresses and the token's EIP-712
// domain, read from the token itself (what a ReceiveWithAuthorization is signed under).

/**
 * How many blocks the service waits for before it counts a transaction: it counts one as
 * done once its receipt is mined (lib/chain/sender.ts pollReceipt), i.e. one confirmation.
 */
export const CONFIRMATIONS = 1;

export type TokenDomain = { name: string; version: string };

const eip712DomainAbi = [
  {
    type: "function",
    name: "eip712Domain",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "fields", type: "bytes1" },
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
      { name: "salt", type: "bytes32" },
      { name: "extensions", type: "uint256[]" },
    ],
  },
] as const;

const versionAbi = [
  {
    type: "function",
    name: "version",
    stateMutability: "view",
    inputs: [],
    outputs: [{ type: "string" }],
  },
] as const;

/** The one read this module makes of the chain (a viem public client satisfies it). */
export type ContractReader = {
  readContract: (args: {
    address: Address;
    abi: readonly unknown[];
    functionName: string;
  }) => Promise<unknown>;
};

/**
 * The token's EIP-712 domain name and version: ERC-5267's eip712Domain() when the token has
 * it, else its name() and version() (Circle's FiatToken exposes those, not ERC-5267). A node
 * that does not answer is a 502; a token with neither is a 503 (misconfigured USDC_ADDRESS).
 */
export async function readTokenDomain(
  client: ContractReader,
  token: Address,
): Promise<TokenDomain> {
  const read = (abi: readonly unknown[], functionName: string) =>
    client.readContract({ address: token, abi, functionName });
  try {
    const domain = (await read(eip712DomainAbi, "eip712Domain")) as readonly unknown[];
    const [, name, version] = domain;
    if (typeof name === "string" && typeof version === "string") return { name, version };
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    // no ERC-5267 on this token: its name() and version() below
  }
  try {
    const [name, version] = await Promise.all([
      read(erc20Abi, "name") as Promise<string>,
      read(versionAbi, "version") as Promise<string>,
    ]);
    return { name, version };
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    throw new AppError(
      "not_configured",
      `The token at ${token} has no readable EIP-712 domain (eip712Domain(), or name() and version()): check USDC_ADDRESS.`,
      { cause: err },
    );
  }
}

// The domain is immutable: read once per process, per chain and token.
const domains = new Map<string, TokenDomain>();

/** The configured USDC's EIP-712 domain, cached for the process once read. */
export async function usdcDomain(): Promise<TokenDomain> {
  const config = chainConfig();
  const usdc = requireUsdc(config);
  const key = `${config.chainId}:${getAddress(usdc)}`;
  const cached = domains.get(key);
  if (cached) return cached;
  const domain = await readTokenDomain(publicClient() as unknown as ContractReader, usdc);
  domains.set(key, domain);
  return domain;
}

/** Tests that redeploy or reconfigure the token drop the cached domains. */
export function resetTokenDomainCache(): void {
  domains.clear();
}

/** GET /api/chain */
export async function chainInfo(): Promise<ChainInfoJson> {
  const config = chainConfig();
  return {
    chainId: config.chainId,
    name: config.known.name,
    // The browser's endpoint (the wallet page and the CSP use the same one).
    rpcUrl: publicChainInfo().rpcUrl,
    usdc: requireUsdc(config),
    escrow: requireEscrow(config),
    usdcDomain: await usdcDomain(),
    confirmations: CONFIRMATIONS,
  };
}

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Address>;

/** GET /api/chain's documented answer (lib/openapi.ts; test/api/chain.test.ts parses real ones). */
export const chainInfoResponse = z
  .object({
    chainId: z.number().int().positive(),
    name: z.string(),
    rpcUrl: z.url().describe("A public JSON-RPC endpoint (never the service's own RPC_URL)"),
    usdc: addressSchema,
    escrow: addressSchema,
    usdcDomain: z
      .object({ name: z.string(), version: z.string() })
      .describe("The token's EIP-712 domain; chainId and verifyingContract (usdc) complete it"),
    confirmations: z.number().int().positive(),
  })
  .meta({ id: "ChainInfo" });
export type ChainInfoJson = z.infer<typeof chainInfoResponse>;
