import "server-only";
import { z } from "zod";
import { pingDatabase, queueDepths } from "@/db/queries/health";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { signerAccount, stuckTransactionAlert } from "@/lib/chain/sender";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

export const healthSchema = z.object({
  ok: z.literal(true),
  db: z.literal("ok"),
  chain: z.object({
    chainId: z.number().int(),
    blockNumber: z.number().int().nonnegative(),
    name: z.string(),
  }),
  degraded: z
    .object({
      stuckTransaction: z.object({
        id: z.string(),
        purpose: z.string(),
        ageSeconds: z.number().int(),
      }),
    })
    .optional()
    .describe("Up, but a transaction has waited to be mined longer than TX_STUCK_ALERT_SECONDS"),
});
export type Health = z.infer<typeof healthSchema>;

/** For operators (?detail=1 with the cron secret): what waits for the cron, and the signer's gas money. */
export const healthDetailSchema = z.object({
  queues: z.object({
    outbox: z.number().int().describe("E-mails waiting to be sent"),
    webhooks: z.number().int().describe("Webhook deliveries waiting"),
    pendingTransactions: z.number().int().describe("Transactions not mined yet"),
    oldestPendingSeconds: z.number().int().nullable(),
  }),
  signer: z
    .object({
      address: z.string(),
      balanceWei: z.string(),
      floorWei: z.string().describe("SIGNER_BALANCE_FLOOR_WEI"),
      belowFloor: z.boolean(),
    })
    .nullable(),
});
export type HealthDetail = z.infer<typeof healthDetailSchema>;

export const healthResponse = healthSchema.extend({
  detail: healthDetailSchema
    .optional()
    .describe("With ?detail=1 and the cron secret: for operators"),
});

async function checkDb(): Promise<string | null> {
  try {
    await pingDatabase(await getDb());
    return null;
  } catch (err) {
    log.warn("health: database check failed", { err });
    return "database unreachable";
  }
}

async function checkChain(): Promise<{ blockNumber: bigint } | string> {
  try {
    const client = publicClient();
    const [chainId, blockNumber] = await Promise.all([
      client.getChainId(),
      client.getBlockNumber(),
    ]);
    if (chainId !== chainConfig().chainId)
      return `RPC answers for chain ${chainId}, expected ${chainConfig().chainId}`;
    return { blockNumber };
  } catch (err) {
    log.warn("health: chain check failed", { err });
    return "chain RPC unreachable";
  }
}

/** Checks every dependency; throws 503 `unavailable` naming the ones that are down. */
export async function checkHealth(): Promise<Health> {
  const [dbProblem, chain] = await Promise.all([checkDb(), checkChain()]);
  const stuck = dbProblem
    ? null
    : await stuckTransactionAlert(await getDb()).catch((err) => {
        log.warn("health: in-flight transactions not checked", { err });
        return null;
      });
  const config = chainConfig();
  if (dbProblem || typeof chain === "string") {
    throw new AppError("unavailable", "A dependency is down.", {
      details: {
        db: dbProblem ?? "ok",
        chain: typeof chain === "string" ? chain : "ok",
        chainId: config.chainId,
      },
    });
  }
  return {
    ok: true,
    db: "ok",
    chain: {
      chainId: config.chainId,
      blockNumber: Number(chain.blockNumber),
      name: config.known.name,
    },
    ...(stuck ? { degraded: { stuckTransaction: stuck } } : {}),
  };
}

/**
 * For operators (GET /api/health?detail=1, behind the cron secret): queue depths, the oldest
 * unmined transaction's age, and whether the signer can still pay for gas.
 */
export async function healthDetail(): Promise<HealthDetail> {
  const config = chainConfig();
  const queues = await queueDepths(await getDb(), config.chainId);
  if (!config.treasuryKey) return { queues, signer: null };
  const address = signerAccount(config.treasuryKey).address;
  const balance = await publicClient().getBalance({ address });
  const floor = env().SIGNER_BALANCE_FLOOR_WEI;
  if (balance < floor)
    log.error("the signer's balance is below the floor: payments will stop for want of gas", {
      address,
      balanceWei: balance.toString(),
      floorWei: floor.toString(),
    });
  return {
    queues,
    signer: {
      address,
      balanceWei: balance.toString(),
      floorWei: floor.toString(),
      belowFloor: balance < floor,
    },
  };
}

export const healthQuery = z.object({
  detail: z
    .enum(["0", "1"])
    .optional()
    .describe("1: also queue depths and the signer's balance (needs the cron secret as bearer)"),
});
