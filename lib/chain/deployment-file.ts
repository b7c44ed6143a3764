import { readFileSync } from "node:fs";
import { type Address, getAddress } from "viem";
import { z } from "zod";

// The local deployment's JSON file (addresses of the contracts on anvil), read on the
// request path by lib/chain/config.ts. Kept apart from lib/chain/deploy.ts so that serving a
// request never loads deploy tooling or contract creation code.

export interface LocalDeployment {
  chainId: number;
  usdc: Address;
  registry: Address;
  /** MilestoneEscrow holding deals' USDC (bound to `usdc`). */
  escrow: Address;
  /** DepositForwarderFactory bound to `escrow`: each deal's deposit address. */
  depositFactory: Address;
  /** Block of the first deployment transaction: where log scans can start. */
  deployBlock: bigint;
}

const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((a) => getAddress(a));
const deploymentFileSchema = z.object({
  chainId: z.number().int().positive(),
  usdc: addressSchema,
  registry: addressSchema,
  escrow: addressSchema,
  depositFactory: addressSchema,
  deployBlock: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]),
  artifactsHash: z.string().optional(),
});

/** The deployment recorded in `file`, or null when the file is missing or unreadable. */
export function readDeploymentFile(
  file: string,
): (LocalDeployment & { artifactsHash?: string }) | null {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = deploymentFileSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    return { ...parsed.data, deployBlock: BigInt(parsed.data.deployBlock) };
  } catch {
    return null;
  }
}
