import { randomUUID } from "node:crypto";
import { type Address, encodeFunctionData, type Hex, keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { ChainWalletClient } from "@/lib/chain/clients";
import { dealIdFromRef, dealKey, dealRef } from "@/lib/escrow/onchain";
import { RELEASES_PER_TX } from "@/lib/settle/batch";
import { approveEscrow, type EscrowChain, startEscrowChain } from "@/test/helpers/escrow-chain";

// What a full releaseBatch costs when every item is a different deal paying a different (new)
// creator — the bulk settle of a campaign across many creators, the most expensive case:
// since EIP-7825 (Fusaka) a single transaction may use at most 2^24 = 16,777,216 gas, and
// MAX_BATCH releases (the escrow's bound) must fit in it with the sender's margin; the
// service's own batches (RELEASES_PER_TX) are smaller still.

const USDC = 10n ** 6n;
const DAY = 86_400n;
const TX_GAS_CAP = 16_777_216n;

let c: EscrowChain;
let brand: ChainWalletClient;
let evaluator: ChainWalletClient;

beforeAll(async () => {
  c = await startEscrowChain();
  brand = await c.actor(1_000_000n * USDC);
  evaluator = await c.actor();
  await approveEscrow(c, brand);
}, 60_000);

afterAll(async () => {
  await c?.stop();
});

type W = Parameters<ChainWalletClient["writeContract"]>[0];
async function send(who: ChainWalletClient, functionName: string, args: readonly unknown[]) {
  const hash = await who.writeContract({
    address: c.escrow,
    abi: milestoneEscrowAbi,
    functionName,
    args,
  } as unknown as W);
  const r = await c.pub.waitForTransactionReceipt({ hash });
  expect(r.status).toBe("success");
}

describe("releaseBatch at MAX_BATCH", () => {
  it("MAX_BATCH items, each a different deal and a new creator, fit in one transaction (2^24 gas)", {
    timeout: 300_000,
  }, async () => {
    const max = Number(
      await c.pub.readContract({
        address: c.escrow,
        abi: milestoneEscrowAbi,
        functionName: "MAX_BATCH",
      }),
    );
    expect(RELEASES_PER_TX).toBeLessThanOrEqual(max);
    const deadline = (await c.pub.getBlock()).timestamp + 7n * DAY;
    const items: Item[] = [];
    for (let i = 0; i < max; i++) {
      const ref = dealRef(randomUUID());
      await send(brand, "fund", [ref, evaluator.account.address, deadline, [2n * USDC]]);
      const key = dealKey(brand.account.address as Address, dealIdFromRef(ref));
      await send(evaluator, "assignCreator", [
        key,
        privateKeyToAccount(generatePrivateKey()).address,
      ]);
      items.push({ dealKey: key, index: 0n, payout: USDC, verdictHash: keccak256(toHex(`v${i}`)) });
    }
    const gasOf = (n: number) =>
      c.pub.estimateGas({
        account: evaluator.account,
        to: c.escrow,
        data: encodeFunctionData({
          abi: milestoneEscrowAbi,
          functionName: "releaseBatch",
          args: [items.slice(0, n)],
        }),
      });
    // What the service signs: its estimate × 1.2 (lib/chain/sender.ts recordTransaction).
    const signed = async (n: number) => ((await gasOf(n)) * 12n) / 10n;
    expect(await signed(max)).toBeLessThanOrEqual(TX_GAS_CAP);
    expect(await signed(RELEASES_PER_TX)).toBeLessThanOrEqual(TX_GAS_CAP / 2n);
  });
});

type Item = { dealKey: Hex; index: bigint; payout: bigint; verdictHash: Hex };
