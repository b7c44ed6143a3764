import { type Address, type Hex, keccak256, parseTransaction } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { publicClient } from "@/lib/chain/config";
import { setChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";
import { submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// A payment transaction that reverts when it is mined (it passed the gas estimate, then the
// chain changed under it, e.g. the funds were not there at that moment) is not a payment:
// the settlement is left failed and retryable, and the next settle call pays it, exactly
// once. The chain is changed between the broadcast and the block: an RPC proxy holds the
// broadcast while the contract the payment calls (the escrow's release) is swapped for code
// that always reverts and the transaction is mined; then the contract is put back (the
// "refill") before the request goes on.

const REVERT_ALWAYS = "0x60006000fd"; // PUSH1 0 PUSH1 0 REVERT

let proxy: RpcProxy;
let restore: () => void;
const node = process.env.RPC_URL as string;

async function nodeRpc(method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(node, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

beforeAll(async () => {
  proxy = await startRpcProxy(node);
  restore = setChainEnv({ RPC_URL: proxy.url });
});
afterAll(async () => {
  restore?.();
  await proxy?.close();
});

describe("a payment that reverts on-chain", () => {
  it("leaves the settlement failed and retryable; settling again pays exactly once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const settle = () => call(settleRoute.POST, { token: brand.token, body: { milestoneId } });

    // The payment's broadcast is held; the test sends those bytes to the node itself while
    // the contract they call reverts (the node mines them at once), restores the contract,
    // then lets the proxy answer the request as the node did: with the hash.
    const broadcast = proxy.hold("eth_sendRawTransaction");
    const firstCall = settle();
    const [raw] = (await broadcast.arrived) as [Hex];
    const target = parseTransaction(raw).to as Address;
    const code = await publicClient().getCode({ address: target });
    expect(code && code.length > 2).toBe(true);
    // Mined while the contract reverts, deterministically: with automine anvil may answer
    // the send before its block is mined (seen on a busy machine: the code was back first
    // and the payment succeeded), so the block is mined explicitly before the code returns.
    await nodeRpc("anvil_setCode", [target, REVERT_ALWAYS]);
    await nodeRpc("evm_setAutomine", [false]);
    let revertedHash: Hex;
    try {
      revertedHash = (await nodeRpc("eth_sendRawTransaction", [raw])) as Hex;
      await nodeRpc("evm_mine", []);
    } finally {
      await nodeRpc("anvil_setCode", [target, code]);
      await nodeRpc("evm_setAutomine", [true]);
    }
    expect(revertedHash).toBe(keccak256(raw));
    broadcast.release({ result: revertedHash });
    const first = await firstCall;

    // Mined, reverted: a clean 502 that says settling again retries it; nothing was paid.
    const receipt = await publicClient().getTransactionReceipt({ hash: revertedHash });
    expect(receipt.status).toBe("reverted");
    expect(first.status, JSON.stringify(first.body)).toBe(502);
    expect(first.body.error.code).toBe("chain_unavailable");
    const [failed] = await settlementRows(milestoneId);
    expect(failed?.status).toBe("failed");
    expect(failed?.txHash).toBe(revertedHash);
    expect(await transfersTo(wallet)).toHaveLength(0);
    expect(await usdcBalance(wallet)).toBe(0n);

    // The next settle call sends a new payment, which goes through: paid once, in full.
    const second = await settle();
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.outcome).toBe("paid");
    expect(second.body.settlement.status).toBe("confirmed");
    expect(second.body.settlement.txHash).not.toBe(revertedHash);
    const [paid] = await settlementRows(milestoneId);
    expect(paid?.status).toBe("confirmed");
    const transfers = await transfersTo(wallet);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.transactionHash).toBe(second.body.settlement.txHash);
    expect(transfers[0]?.args.value).toBe(paid?.amountUnits);
    expect(await usdcBalance(wallet)).toBe(paid?.amountUnits);

    // And never again.
    const third = await settle();
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe("already_settled");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
