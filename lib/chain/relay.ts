import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { address } from "@/lib/api/fields";
import { type ChainConfig, chainConfig } from "@/lib/chain/config";
import { env } from "@/lib/env";

// The relay (gasless) settlement route: the settlement key signs an EIP-3009
// authorization and a relayer submits it, paying the gas. On the local chain the
// relayer is a sponsor account on anvil; elsewhere a Gelato-style relayer API.

export type RelayProvider = "local" | "gelato";

/** Chains a Gelato-style relayer serves (sponsored calls). */
const gelatoChains = new Set([84532, 11155111, 8453]);

export const relayStatusResponse = z
  .object({
    configured: z.boolean(),
    provider: z.enum(["local", "gelato"]).nullable(),
    chainId: z.number().int(),
    supported: z.boolean(),
    sponsor: address.optional(),
    reason: z.string().optional(),
  })
  .meta({ id: "RelayStatus" });
export type RelayStatus = z.infer<typeof relayStatusResponse>;

export function relayProvider(config: ChainConfig = chainConfig()): RelayProvider | null {
  const e = env();
  if (e.RELAY_PROVIDER) return e.RELAY_PROVIDER;
  if (config.known.name === "local") return "local";
  if (e.RELAY_API_URL && e.RELAY_API_KEY) return "gelato";
  return null;
}

/**
 * Whether relayed settlement is available on `chainId` (default: the active chain).
 * Reads configuration only — never calls the relayer, never exposes a secret.
 */
export function relayStatus(chainId?: number, config: ChainConfig = chainConfig()): RelayStatus {
  const e = env();
  const provider = relayProvider(config);
  const target = chainId ?? config.chainId;
  if (!provider)
    return {
      configured: false,
      provider: null,
      chainId: target,
      supported: false,
      reason: "RELAY_PROVIDER is not set (or RELAY_API_URL / RELAY_API_KEY are missing)",
    };
  if (provider === "local") {
    const sponsor = config.sponsorKey ? privateKeyToAccount(config.sponsorKey).address : undefined;
    const configured = Boolean(sponsor) && config.known.name === "local";
    const supported = configured && target === config.chainId;
    return {
      configured,
      provider,
      chainId: target,
      supported,
      ...(sponsor ? { sponsor } : {}),
      ...(!configured
        ? { reason: "the local relayer runs only on the local chain" }
        : !supported
          ? { reason: `this deployment settles on chain ${config.chainId}` }
          : {}),
    };
  }
  const configured = Boolean(e.RELAY_API_URL && e.RELAY_API_KEY);
  const supported = configured && target === config.chainId && gelatoChains.has(target);
  return {
    configured,
    provider,
    chainId: target,
    supported,
    ...(!configured
      ? { reason: "RELAY_API_URL and RELAY_API_KEY are required" }
      : !supported
        ? {
            reason:
              target !== config.chainId
                ? `this deployment settles on chain ${config.chainId}`
                : `the relayer does not serve chain ${target}`,
          }
        : {}),
  };
}

/** GET /api/relay/status's query (the route validates with it; the reference shows it). */
export const relayStatusQuery = z.object({
  chainId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53)
    .optional()
    .describe("The chain to ask about (default: this deployment's)"),
});
