import "server-only";
import { z } from "zod";
import { pingDatabase, type QueueDepths, queueDepths } from "@/db/queries/health";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { signerAccount, stuckTransactionAlert } from "@/lib/chain/sender";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

export type Health = {
  ok: true;
  db: "ok";
  chain: { chainId: number; blockNumber: number; name: string };
  /**
   * Up, but something needs an operator: a transaction unmined longer than
   * TX_STUCK_ALERT_SECONDS (also logged at error level). Absent when all is well.
   */
  degraded?: { stuckTransaction: { id: string; purpose: string; ageSeconds: number } };
};

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

export type HealthDetail = {
  /** What waits for the cron: e-mails, webhook deliveries, unmined transactions. */
  queues: QueueDepths;
  /** The service's signer (releases, refunds): its gas money against the floor. */
  signer: { address: string; balanceWei: string; floorWei: string; belowFloor: boolean } | null;
};

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
