import { randomUUID } from "node:crypto";
import {
  type Address,
  getAddress,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  depositForwarderAbi,
  depositForwarderFactoryAbi,
  milestoneEscrowAbi,
  mockUsdcAbi,
} from "@/contracts/artifacts";
import type { ChainWalletClient } from "@/lib/chain/clients";
import {
  type DepositTerms,
  decodeDepositArgs,
  depositAddressOf,
  encodeDepositArgs,
  forwarderImplementation,
  paymentUri,
} from "@/lib/escrow/deposit";
import { dealIdFromRef, dealKey, dealRef, totalOf } from "@/lib/escrow/onchain";
import {
  approveEscrow,
  type EscrowChain,
  revertReason as outerReason,
  readDeal,
  startEscrowChain,
} from "@/test/helpers/escrow-chain";

// contracts/DepositForwarder.sol: a deal's deposit address. Its only moves are funding this
// deal in the escrow (under dealKey(forwarder, ref)) and returning money to the refund address;
// anyone triggers them. Plus the escrow's per-deal refund recipient.

const USDC = 10n ** 6n;
const DAY = 86_400n;

let c: EscrowChain;
let factory: Address;
let evaluator: ChainWalletClient;
let brandRefund: Address; // the brand's refund address (an exchange deposit address, say)
let payer: ChainWalletClient; // sends USDC to deposit addresses (an exchange withdrawal)
let stranger: ChainWalletClient; // anyone: triggers sweeps, tries to squat
let creator: ChainWalletClient;

/** Custom errors of the forwarder and the escrow, by selector (a factory call bubbles them up). */
const errorNames = new Map(
  [...depositForwarderAbi, ...depositForwarderFactoryAbi, ...milestoneEscrowAbi]
    .filter((i) => i.type === "error")
    .map((i) => [
      toFunctionSelector(`${i.name}(${i.inputs.map((x) => x.type).join(",")})`),
      i.name,
    ]),
);
async function revertReason(p: Promise<unknown>): Promise<string | undefined> {
  const r = await outerReason(p);
  return (r && errorNames.get(r as Hex)) ?? r;
}

const now = async () => (await c.pub.getBlock()).timestamp;
const keyOf = (funder: Address, ref: Hex): Hex => dealKey(funder, dealIdFromRef(ref));

async function ok(p: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await c.pub.waitForTransactionReceipt({ hash: await p });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function terms(opts: Partial<DepositTerms> = {}): Promise<DepositTerms> {
  return {
    dealRef: opts.dealRef ?? dealRef(randomUUID()),
    evaluator: opts.evaluator ?? evaluator.account.address,
    deadline: opts.deadline ?? (await now()) + 7n * DAY,
    refundTo: opts.refundTo ?? brandRefund,
    amounts: opts.amounts ?? [10n * USDC, 20n * USDC],
  };
}

const addressOf = (t: DepositTerms) => depositAddressOf(factory, encodeDepositArgs(t));

function pay(to: Address, amount: bigint, from: ChainWalletClient = payer) {
  return ok(
    from.writeContract({
      address: c.usdc,
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [to, amount],
    }),
  );
}

type FactoryWrite = Parameters<ChainWalletClient["writeContract"]>[0];
function factoryCall(who: ChainWalletClient, fn: "deploy" | "sweep" | "refund", t: DepositTerms) {
  return who.writeContract({
    address: factory,
    abi: depositForwarderFactoryAbi,
    functionName: fn,
    args: [{ ...t, amounts: [...t.amounts] }],
  } as unknown as FactoryWrite);
}
function forwarderCall(
  who: ChainWalletClient,
  at: Address,
  fn: "sweep" | "refund" | "cancelDeal" | "refundFor",
  args: readonly unknown[] = [],
) {
  return who.writeContract({
    address: at,
    abi: depositForwarderAbi,
    functionName: fn,
    args,
  } as unknown as FactoryWrite);
}
function escrowCall(who: ChainWalletClient, fn: string, args: readonly unknown[]) {
  return who.writeContract({
    address: c.escrow,
    abi: milestoneEscrowAbi,
    functionName: fn,
    args,
  } as unknown as FactoryWrite);
}

async function balances<T extends readonly Address[]>(...who: T) {
  return (await Promise.all(who.map((w) => c.balanceOf(w)))) as { [K in keyof T]: bigint };
}

beforeAll(async () => {
  c = await startEscrowChain();
  factory = c.depositFactory;
  evaluator = await c.actor();
  payer = await c.actor(1_000_000n * USDC);
  stranger = await c.actor(1_000_000n * USDC);
  creator = await c.actor();
  brandRefund = (await c.actor()).account.address;
  await approveEscrow(c, stranger);
}, 60_000);

afterAll(async () => {
  await c?.stop();
});

describe("deposit addresses (lib/escrow/deposit, no RPC)", () => {
  it("the computed address is the factory's CREATE2 clone address, and its implementation the factory's first creation", async () => {
    const t = await terms();
    const onChain = await c.pub.readContract({
      address: factory,
      abi: depositForwarderFactoryAbi,
      functionName: "forwarderAddress",
      args: [{ ...t, amounts: [...t.amounts] }],
    });
    expect(addressOf(t)).toBe(getAddress(onChain));
    const impl = await c.pub.readContract({
      address: factory,
      abi: depositForwarderFactoryAbi,
      functionName: "implementation",
    });
    expect(forwarderImplementation(factory)).toBe(getAddress(impl));
    expect(decodeDepositArgs(encodeDepositArgs(t))).toEqual({
      ...t,
      evaluator: getAddress(t.evaluator),
      refundTo: getAddress(t.refundTo),
    });
    // Deployed where predicted, with these terms as its arguments.
    await ok(factoryCall(stranger, "deploy", t));
    const deployed = await c.pub.readContract({
      address: addressOf(t),
      abi: depositForwarderAbi,
      functionName: "terms",
    });
    expect(deployed.dealRef).toBe(t.dealRef);
    expect(deployed.amounts).toEqual(t.amounts);
    expect(getAddress(deployed.refundTo)).toBe(getAddress(brandRefund));
  });

  it("every term and the refund address change the address", async () => {
    const t = await terms();
    const variants: DepositTerms[] = [
      { ...t, dealRef: dealRef(randomUUID()) },
      { ...t, evaluator: stranger.account.address },
      { ...t, deadline: t.deadline + 1n },
      { ...t, refundTo: stranger.account.address },
      { ...t, amounts: [t.amounts[1] as bigint, t.amounts[0] as bigint] },
      { ...t, amounts: [...t.amounts, 1n] },
    ];
    const all = new Set([addressOf(t), ...variants.map(addressOf)]);
    expect(all.size).toBe(variants.length + 1);
  });

  it("the payment URI is EIP-681's ERC-20 transfer", () => {
    const to = "0x00000000000000000000000000000000000000a1";
    expect(
      paymentUri({
        usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        chainId: 84532,
        to,
        units: 12_500_000n,
      }),
    ).toBe(
      "ethereum:0x036CbD53842c5426634e7929541eC2318f3dCF7e@84532/transfer?address=0x00000000000000000000000000000000000000A1&uint256=12500000",
    );
  });
});

describe("sweep", () => {
  it("exact payment: anyone sweeps; the escrow holds the deal under dealKey(forwarder, ref) with the refund address as its recipient", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    const total = totalOf(t.amounts);
    await pay(fwd, total);
    const [escrowBefore, refundBefore] = await balances(c.escrow, brandRefund);
    const receipt = await ok(factoryCall(stranger, "sweep", t)); // deploys and sweeps
    const [escrowAfter, refundAfter, left] = await balances(c.escrow, brandRefund, fwd);
    expect(escrowAfter - escrowBefore).toBe(total);
    expect(refundAfter).toBe(refundBefore);
    expect(left).toBe(0n);

    const key = keyOf(fwd, t.dealRef);
    const deal = await readDeal(c.pub, c.escrow, key);
    expect(deal.brand).toBe(fwd);
    expect(deal.evaluator).toBe(evaluator.account.address);
    expect(deal.deadline).toBe(t.deadline);
    expect(deal.funded).toBe(total);
    expect(
      await c.pub.readContract({
        address: c.escrow,
        abi: milestoneEscrowAbi,
        functionName: "refundRecipient",
        args: [key],
      }),
    ).toBe(getAddress(brandRefund));
    const swept = parseEventLogs({ abi: depositForwarderAbi, logs: receipt.logs }).find(
      (e) => e.eventName === "Swept",
    );
    expect(swept?.args).toMatchObject({ dealKey: key, total, excess: 0n });
    const deployed = parseEventLogs({ abi: depositForwarderFactoryAbi, logs: receipt.logs }).find(
      (e) => e.eventName === "ForwarderDeployed",
    );
    expect(deployed?.args.forwarder).toBe(fwd);
  });

  it("over-payment: exactly the total goes to the escrow, the excess to the refund address, nothing anywhere else", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    const total = totalOf(t.amounts);
    await pay(fwd, total + 7n * USDC + 1n);
    const watched = [c.escrow, brandRefund, fwd, stranger.account.address, factory] as const;
    const before = await balances(...watched);
    await ok(factoryCall(stranger, "sweep", t));
    const after = await balances(...watched);
    expect(after[0] - before[0]).toBe(total); // escrow
    expect(after[1] - before[1]).toBe(7n * USDC + 1n); // refund address
    expect(after[2]).toBe(0n); // forwarder
    expect(after[3]).toBe(before[3]); // the sweeper gets nothing
    expect(after[4]).toBe(0n); // the factory holds nothing
  });

  it("under-payment: the sweep refuses and moves nothing; a top-up completes it", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    const total = totalOf(t.amounts);
    await pay(fwd, total - 1n);
    expect(await revertReason(factoryCall(stranger, "sweep", t))).toBe("Underpaid");
    await ok(factoryCall(stranger, "deploy", t));
    expect(await revertReason(forwarderCall(stranger, fwd, "sweep"))).toBe("Underpaid");
    expect(await c.balanceOf(fwd)).toBe(total - 1n);
    expect((await readDeal(c.pub, c.escrow, keyOf(fwd, t.dealRef))).brand).toBe(zeroAddress);
    await pay(fwd, 1n);
    await ok(forwarderCall(stranger, fwd, "sweep"));
    expect((await readDeal(c.pub, c.escrow, keyOf(fwd, t.dealRef))).funded).toBe(total);
  });

  it("a key is funded once: a second sweep refuses (AlreadyFunded), and the escrow refuses a second funding of a key (DealExists)", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    const total = totalOf(t.amounts);
    await pay(fwd, total);
    await ok(factoryCall(stranger, "sweep", t));
    await pay(fwd, total); // a second full payment
    expect(await revertReason(factoryCall(stranger, "sweep", t))).toBe("AlreadyFunded");
    // The escrow itself: the same funder and ref again.
    const ref = dealRef(randomUUID());
    const args = [ref, evaluator.account.address, t.deadline, [5n * USDC]] as const;
    await ok(escrowCall(stranger, "fund", args));
    expect(await revertReason(escrowCall(stranger, "fund", args))).toBe("DealExists");
    expect(
      await revertReason(
        escrowCall(stranger, "fundWithRefundAddress", [...args, stranger.account.address]),
      ),
    ).toBe("DealExists");
  });

  it("squatting: a third party funding the same ref (exact terms, its own key) blocks neither the sweep nor takes the forwarder's key", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    const total = totalOf(t.amounts);
    // The squatter funds the ref first, with the exact terms, even naming the refund address.
    await ok(
      escrowCall(stranger, "fundWithRefundAddress", [
        t.dealRef,
        t.evaluator,
        t.deadline,
        t.amounts,
        brandRefund,
      ]),
    );
    const squatKey = keyOf(stranger.account.address, t.dealRef);
    expect((await readDeal(c.pub, c.escrow, squatKey)).brand).toBe(stranger.account.address);
    await pay(fwd, total);
    await ok(factoryCall(stranger, "sweep", t));
    const mine = await readDeal(c.pub, c.escrow, keyOf(fwd, t.dealRef));
    expect(mine.brand).toBe(fwd);
    expect(mine.funded).toBe(total);
    expect(squatKey).not.toBe(keyOf(fwd, t.dealRef));
    // Nobody but the forwarder can create a deal under the forwarder's key: fund() always
    // keys by msg.sender, so the only way to that key is through sweep().
    expect(await revertReason(forwarderCall(stranger, fwd, "cancelDeal"))).toBe("NotEvaluator");
  });

  it("a sweep past the deadline refuses (the escrow will not take a past deadline); then anyone may refund", async () => {
    const t = await terms({ deadline: (await now()) + 100n });
    const fwd = addressOf(t);
    await pay(fwd, totalOf(t.amounts));
    await c.rpc("evm_increaseTime", [200]);
    await c.rpc("evm_mine");
    expect(await revertReason(factoryCall(stranger, "sweep", t))).toBe("DeadlineNotInFuture");
    const before = await c.balanceOf(brandRefund);
    await ok(factoryCall(stranger, "refund", t));
    expect((await c.balanceOf(brandRefund)) - before).toBe(totalOf(t.amounts));
    expect(await c.balanceOf(fwd)).toBe(0n);
  });
});

describe("refund", () => {
  it("before funding and the deadline, only the evaluator may return a deposit (an app-cancelled deal); a stranger is refused", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    await pay(fwd, 3n * USDC);
    expect(await revertReason(factoryCall(stranger, "refund", t))).toBe("RefundNotAllowed");
    await ok(factoryCall(stranger, "deploy", t)); // deploying is harmless: anyone may
    expect(await revertReason(forwarderCall(stranger, fwd, "refund"))).toBe("RefundNotAllowed");
    // refundFor is the factory's alone: nobody passes the evaluator as "caller" directly.
    expect(
      await revertReason(forwarderCall(stranger, fwd, "refundFor", [evaluator.account.address])),
    ).toBe("NotFactory");
    const before = await c.balanceOf(brandRefund);
    const receipt = await ok(factoryCall(evaluator, "refund", t));
    expect((await c.balanceOf(brandRefund)) - before).toBe(3n * USDC);
    const returned = parseEventLogs({ abi: depositForwarderAbi, logs: receipt.logs }).find(
      (e) => e.eventName === "Returned",
    );
    expect(returned?.args).toMatchObject({
      refundTo: getAddress(brandRefund),
      amount: 3n * USDC,
      caller: evaluator.account.address,
    });
    // Nothing left: a second refund refuses.
    expect(await revertReason(forwarderCall(evaluator, fwd, "refund"))).toBe("NothingToReturn");
  });

  it("after the deal is funded, anyone returns a late top-up to the refund address (never to the escrow or the caller)", async () => {
    const t = await terms();
    const fwd = addressOf(t);
    const total = totalOf(t.amounts);
    await pay(fwd, total);
    await ok(factoryCall(stranger, "sweep", t));
    await pay(fwd, 2n * USDC);
    const watched = [c.escrow, brandRefund, stranger.account.address] as const;
    const before = await balances(...watched);
    await ok(forwarderCall(stranger, fwd, "refund"));
    const after = await balances(...watched);
    expect(after[0]).toBe(before[0]);
    expect(after[1] - before[1]).toBe(2n * USDC);
    expect(after[2]).toBe(before[2]);
  });

  it("the factory refuses a zero refund address (ZeroRefundAddress) for deploy, sweep and refund; nothing moves", async () => {
    const t = await terms({ refundTo: zeroAddress });
    const f = addressOf(t);
    await pay(f, totalOf(t.amounts));
    for (const fn of ["deploy", "sweep", "refund"] as const)
      expect(await revertReason(factoryCall(evaluator, fn, t))).toBe("ZeroRefundAddress");
    expect(await c.pub.getCode({ address: f })).toBeUndefined();
    expect(await c.balanceOf(f)).toBe(totalOf(t.amounts));
  });

  it("the implementation cannot be used directly", async () => {
    const impl = forwarderImplementation(factory);
    expect(await revertReason(forwarderCall(stranger, impl, "sweep"))).toBe("NotAClone");
    expect(await revertReason(forwarderCall(stranger, impl, "refund"))).toBe("NotAClone");
  });
});

describe("the escrow's refund recipient", () => {
  it("a forwarder's deal: cancel (evaluator through the forwarder), a release's remainder and expired milestones all go to the refund address", async () => {
    // Cancel of an untaken deal.
    const t1 = await terms();
    const f1 = addressOf(t1);
    await pay(f1, totalOf(t1.amounts));
    await ok(factoryCall(stranger, "sweep", t1));
    expect(await revertReason(forwarderCall(stranger, f1, "cancelDeal"))).toBe("NotEvaluator");
    const before1 = await c.balanceOf(brandRefund);
    await ok(forwarderCall(evaluator, f1, "cancelDeal"));
    expect((await c.balanceOf(brandRefund)) - before1).toBe(totalOf(t1.amounts));
    expect((await readDeal(c.pub, c.escrow, keyOf(f1, t1.dealRef))).cancelled).toBe(true);

    // A release's remainder and an expired milestone.
    const t2 = await terms();
    const f2 = addressOf(t2);
    const key = keyOf(f2, t2.dealRef);
    await pay(f2, totalOf(t2.amounts));
    await ok(factoryCall(stranger, "sweep", t2));
    await ok(escrowCall(evaluator, "assignCreator", [key, creator.account.address]));
    const before2 = await balances(brandRefund, creator.account.address);
    await ok(escrowCall(evaluator, "release", [key, 0n, 6n * USDC, `0x${"11".repeat(32)}` as Hex]));
    const after2 = await balances(brandRefund, creator.account.address);
    expect(after2[1] - before2[1]).toBe(6n * USDC);
    expect(after2[0] - before2[0]).toBe(4n * USDC);
    await c.rpc("evm_increaseTime", [Number(15n * DAY)]);
    await c.rpc("evm_mine");
    await ok(escrowCall(stranger, "refundExpired", [key, 1n]));
    expect((await c.balanceOf(brandRefund)) - after2[0]).toBe(20n * USDC);
  });

  it("fund() keeps the funder as the recipient; fundWithRefundAddress refuses the zero address", async () => {
    const ref = dealRef(randomUUID());
    const deadline = (await now()) + 7n * DAY;
    const receipt = await ok(
      escrowCall(stranger, "fund", [ref, evaluator.account.address, deadline, [USDC]]),
    );
    const key = keyOf(stranger.account.address, ref);
    expect(
      await c.pub.readContract({
        address: c.escrow,
        abi: milestoneEscrowAbi,
        functionName: "refundRecipient",
        args: [key],
      }),
    ).toBe(stranger.account.address);
    const set = parseEventLogs({ abi: milestoneEscrowAbi, logs: receipt.logs }).find(
      (e) => e.eventName === "RefundRecipientSet",
    );
    expect(set?.args).toEqual({ dealKey: key, refundTo: stranger.account.address });
    expect(
      await revertReason(
        escrowCall(stranger, "fundWithRefundAddress", [
          dealRef(randomUUID()),
          evaluator.account.address,
          deadline,
          [USDC],
          zeroAddress,
        ]),
      ),
    ).toBe("ZeroAddress");
  });
});
