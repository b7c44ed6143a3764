import { expect } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import type { Settlement } from "@/db/schema";
import { setChainEnv, startOwnChain } from "../helpers/chain-env";
import { call } from "../helpers/http";
import type { TestUser } from "../helpers/users";
import { settlementRows } from "./fixtures";

// Settlements a request left unfinished, made the way it happens: the payment was signed,
// recorded and broadcast, but no block came before the request gave up (a stalled node, a
// crash). The chain is this file's own anvil, so its mining can be paused without touching
// the shared node; the receipt timeout is 1 s so the request gives up quickly.

export type PausableChain = Awaited<ReturnType<typeof startPausableChain>>;

export async function startPausableChain() {
  const own = await startOwnChain();
  const restoreTimeout = setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "1" });
  async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
    const res = await fetch(own.anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  }
  return {
    ...own,
    rpc,
    async stop() {
      restoreTimeout();
      own.restore();
      await own.anvil.stop();
    },
  };
}

/**
 * POST /api/settle while the node mines nothing: the request answers 202 and leaves the
 * settlement `submitted` with its signed transaction. Then the node loses the transaction
 * (as a restarted node does) and mines again, so whoever finishes the settlement must
 * re-broadcast those same bytes: paying anew would show up as a second transfer.
 */
export async function leaveSettlementUnmined(
  chain: PausableChain,
  brand: TestUser,
  milestoneId: string,
): Promise<Settlement> {
  await chain.rpc("evm_setAutomine", [false]);
  try {
    const res = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
    // Sent, not confirmed within the request's budget: 202 with the settlement's state.
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.outcome).toBe("submitted");
  } finally {
    const [row] = await settlementRows(milestoneId);
    if (row?.txHash) await chain.rpc("anvil_dropTransaction", [row.txHash]);
    await chain.rpc("evm_setAutomine", [true]);
  }
  const [row] = await settlementRows(milestoneId);
  if (!row) throw new Error("no settlement was left behind");
  expect(row.status).toBe("submitted");
  expect(row.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  return row;
}
