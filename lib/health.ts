import "server-only";
import { pingDatabase } from "@/db/queries/health";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { stuckTransactionAlert } from "@/lib/chain/sender";
import { getDb } from "@/lib/db";
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
