import { randomUUID } from "node:crypto";
import {
  type Address,
  decodeErrorResult,
  type Hex,
  isAddressEqual,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
  toFunctionSelector,
  toHex,
  zeroAddress,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import type { ChainWalletClient } from "@/lib/chain/clients";
import {
  dealIdFromRef,
  dealKey,
  dealRef,
  fundingNonce,
  GRACE_PERIOD_SECONDS,
  MilestoneState,
  receiveAuthorizationTypedData,
  releaseTypedData,
} from "@/lib/escrow/onchain";
import {
  approveEscrow,
  type EscrowChain,
  readDeal,
  revertReason,
  startEscrowChain,
} from "@/test/helpers/escrow-chain";

const USDC = 10n ** 6n;
const DAY = 86_400n;

let c: EscrowChain;
let escrow: Address;
let brand: ChainWalletClient; // funds with approve + fund
let gaslessBrand: ChainWalletClient; // funds only by signing (never approves)
let evaluator: ChainWalletClient;
let creator: ChainWalletClient;
let relayer: ChainWalletClient;
let stranger: ChainWalletClient;

/** A fresh deal ref (what fund takes). */
const newRef = (): Hex => dealRef(randomUUID());
/** A key nobody funded. */
const newKey = (): Hex => dealKey(zeroAddress, randomUUID());
const verdict = (label: string): Hex => keccak256(toHex(`verdict:${label}`));
const now = async () => (await c.pub.getBlock()).timestamp;

async function timeTravel(seconds: bigint) {
  await c.rpc("evm_increaseTime", [Number(seconds)]);
  await c.rpc("evm_mine");
}

type EscrowWrite = Parameters<ChainWalletClient["writeContract"]>[0];
/** Sends an escrow call as `who`: a promise of the tx hash (rejects on a revert). */
function call(
  who: ChainWalletClient,
  functionName: string,
  args: readonly unknown[],
): Promise<Hex> {
  return who.writeContract({
    address: escrow,
    abi: milestoneEscrowAbi,
    functionName,
    args,
  } as unknown as EscrowWrite);
}

async function ok(p: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await c.pub.waitForTransactionReceipt({ hash: await p });
  expect(receipt.status).toBe("success");
  return receipt;
}

const events = (receipt: TransactionReceipt) =>
  parseEventLogs({ abi: milestoneEscrowAbi, logs: receipt.logs });

async function balances<T extends readonly Address[]>(...who: T) {
  return (await Promise.all(who.map((w) => c.balanceOf(w)))) as { [K in keyof T]: bigint };
}

/** Funds a deal by `by` (default: the brand): its key is the funder's, dealKey(by, ref). */
async function fundDeal(
  opts: { amounts?: bigint[]; deadline?: bigint; by?: ChainWalletClient; ref?: Hex } = {},
) {
  const by = opts.by ?? brand;
  const ref = opts.ref ?? newRef();
  const key = keyOf(by.account.address, ref);
  const amounts = opts.amounts ?? [10n * USDC, 20n * USDC, 30n * USDC];
  const deadline = opts.deadline ?? (await now()) + 7n * DAY;
  const receipt = await ok(call(by, "fund", [ref, evaluator.account.address, deadline, amounts]));
  return { ref, key, amounts, deadline, receipt };
}

/** The key of `funder`'s deal `ref`, as lib/escrow/onchain's dealKey computes it. */
const keyOf = (funder: Address, ref: Hex): Hex => dealKey(funder, dealIdFromRef(ref));

async function assignedDeal(opts: Parameters<typeof fundDeal>[0] = {}) {
  const d = await fundDeal(opts);
  await ok(call(evaluator, "assignCreator", [d.key, creator.account.address]));
  return d;
}

const milestone = (key: Hex, index: bigint) =>
  c.pub.readContract({
    address: escrow,
    abi: milestoneEscrowAbi,
    functionName: "getMilestone",
    args: [key, index],
  });

beforeAll(async () => {
  c = await startEscrowChain();
  escrow = c.escrow;
  // One at a time: minting is sent by the deployer, whose nonces must not collide.
  brand = await c.actor(1_000_000n * USDC);
  gaslessBrand = await c.actor(1_000_000n * USDC);
  evaluator = await c.actor();
  creator = await c.actor();
  relayer = await c.actor();
  stranger = await c.actor(1_000n * USDC);
  await approveEscrow(c, brand);
  await approveEscrow(c, stranger);
}, 60_000);

afterAll(async () => {
  await c?.stop();
});

describe("deal refs and keys (lib/escrow/onchain)", () => {
  it("a ref left-pads a UUID's 16 bytes to 32 and back", () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    expect(dealRef(id)).toBe(`0x${"00".repeat(16)}0f8fad5bd9cb469fa16570867728950e`);
    expect(dealRef(id.toUpperCase())).toBe(dealRef(id));
    expect(dealIdFromRef(dealRef(id))).toBe(id);
    expect(() => dealRef("not-a-uuid")).toThrow();
    expect(() => dealIdFromRef(keccak256("0x01"))).toThrow();
  });

  it("a key binds the funder and the ref, and equals the contract's dealKey", async () => {
    const id = randomUUID();
    const a = brand.account.address;
    const b = stranger.account.address;
    expect(dealKey(a, id)).not.toBe(dealKey(b, id));
    expect(dealKey(a, id)).not.toBe(dealKey(a, randomUUID()));
    expect(dealKey(a.toLowerCase() as Address, id)).toBe(dealKey(a, id));
    for (const who of [a, b])
      expect(
        await c.pub.readContract({
          address: escrow,
          abi: milestoneEscrowAbi,
          functionName: "dealKey",
          args: [who, dealRef(id)],
        }),
      ).toBe(dealKey(who, id));
  });
});

describe("fund", () => {
  it("pulls the total from the brand and records the deal with every milestone locked", async () => {
    const [brandBefore, escrowBefore] = await balances(brand.account.address, escrow);
    const { ref, key, amounts, deadline, receipt } = await fundDeal();
    const [brandAfter, escrowAfter] = await balances(brand.account.address, escrow);
    expect(brandBefore - brandAfter).toBe(60n * USDC);
    expect(escrowAfter - escrowBefore).toBe(60n * USDC);

    expect(events(receipt).map((e) => [e.eventName, e.args])).toEqual([
      [
        "Funded",
        {
          dealKey: key,
          brand: brand.account.address,
          dealRef: ref,
          evaluator: evaluator.account.address,
          deadline,
          total: 60n * USDC,
          milestoneCount: 3n,
        },
      ],
      // fund() keeps the funder as the deal's refund recipient
      ["RefundRecipientSet", { dealKey: key, refundTo: brand.account.address }],
    ]);
    expect(await readDeal(c.pub, escrow, key)).toEqual({
      brand: brand.account.address,
      evaluator: evaluator.account.address,
      creator: zeroAddress,
      deadline,
      cancelled: false,
      funded: 60n * USDC,
      released: 0n,
      refunded: 0n,
      locked: 60n * USDC,
      milestoneCount: 3n,
    });
    for (const [i, amount] of amounts.entries())
      expect(await milestone(key, BigInt(i))).toEqual([amount, MilestoneState.Locked]);
  });

  it("accepts up to 50 milestones", async () => {
    const { key } = await fundDeal({ amounts: Array.from({ length: 50 }, () => 1n) });
    expect((await readDeal(c.pub, escrow, key)).milestoneCount).toBe(50n);
  });

  it("refuses a second funding of a key, a zero evaluator, 0 or 51 milestones, a zero amount, a past deadline", async () => {
    const { ref } = await fundDeal();
    const t = await now();
    const ev = evaluator.account.address;
    const fund = (k: Hex, e: Address, deadline: bigint, amounts: bigint[]) =>
      revertReason(call(brand, "fund", [k, e, deadline, amounts]));
    const before = await balances(brand.account.address, escrow);

    expect(await fund(ref, ev, t + DAY, [USDC])).toBe("DealExists");
    expect(await fund(newRef(), zeroAddress, t + DAY, [USDC])).toBe("ZeroAddress");
    expect(await fund(newRef(), ev, t + DAY, [])).toBe("InvalidMilestoneCount");
    expect(
      await fund(
        newRef(),
        ev,
        t + DAY,
        Array.from({ length: 51 }, () => 1n),
      ),
    ).toBe("InvalidMilestoneCount");
    expect(await fund(newRef(), ev, t + DAY, [USDC, 0n, USDC])).toBe("ZeroAmount");
    expect(await fund(newRef(), ev, t, [USDC])).toBe("DeadlineNotInFuture");
    expect(await fund(newRef(), ev, t - DAY, [USDC])).toBe("DeadlineNotInFuture");
    expect(await balances(brand.account.address, escrow)).toEqual(before);
  });

  it("fails without the brand's allowance or balance (the token refuses the pull)", async () => {
    const poor = await c.actor(5n * USDC);
    const ev = evaluator.account.address;
    const deadline = (await now()) + DAY;
    const allowanceError = toFunctionSelector(
      "ERC20InsufficientAllowance(address,uint256,uint256)",
    );
    expect(await revertReason(call(poor, "fund", [newRef(), ev, deadline, [USDC]]))).toBe(
      allowanceError,
    );
    await approveEscrow(c, poor);
    expect(await revertReason(call(poor, "fund", [newRef(), ev, deadline, [6n * USDC]]))).toBe(
      toFunctionSelector("ERC20InsufficientBalance(address,uint256,uint256)"),
    );
  });

  it("reads an unknown deal as zeros; getMilestone refuses unknown deals and indexes", async () => {
    const unknown = newKey();
    const d = await readDeal(c.pub, escrow, unknown);
    expect(d.brand).toBe(zeroAddress);
    expect(d.funded).toBe(0n);
    expect(d.milestoneCount).toBe(0n);
    expect(await revertReason(milestone(unknown, 0n))).toBe("DealNotFound");
    const { key } = await fundDeal();
    expect(await revertReason(milestone(key, 3n))).toBe("InvalidMilestone");
  });
});

describe("fundWithAuthorization", () => {
  async function signFunding(
    p: { ref?: Hex; amounts?: bigint[]; deadline?: bigint; validBefore?: bigint } = {},
  ) {
    const ref = p.ref ?? newRef();
    const key = keyOf(gaslessBrand.account.address, ref);
    const amounts = p.amounts ?? [15n * USDC, 25n * USDC];
    const deadline = p.deadline ?? (await now()) + 7n * DAY;
    const validBefore = p.validBefore ?? (await now()) + 3600n;
    const terms = {
      chainId: c.chainId,
      escrow,
      dealRef: ref,
      brand: gaslessBrand.account.address,
      evaluator: evaluator.account.address,
      deadline,
      amounts,
    };
    const signature = await gaslessBrand.signTypedData(
      receiveAuthorizationTypedData({ ...terms, usdc: c.usdc, validAfter: 0n, validBefore }),
    );
    const args = (
      o: Partial<{
        ref: Hex;
        brand: Address;
        evaluator: Address;
        deadline: bigint;
        amounts: bigint[];
      }> = {},
    ) => [
      o.ref ?? ref,
      o.brand ?? gaslessBrand.account.address,
      o.evaluator ?? evaluator.account.address,
      o.deadline ?? deadline,
      o.amounts ?? amounts,
      0n,
      validBefore,
      signature,
    ];
    return { ref, key, amounts, deadline, terms, signature, args };
  }

  it("a relayer funds the deal from the brand's signature; the nonce matches the contract's", async () => {
    const s = await signFunding();
    expect(
      await c.pub.readContract({
        address: escrow,
        abi: milestoneEscrowAbi,
        functionName: "fundingNonce",
        args: [
          s.ref,
          gaslessBrand.account.address,
          evaluator.account.address,
          s.deadline,
          s.amounts,
        ],
      }),
    ).toBe(fundingNonce(s.terms));

    const who = [gaslessBrand.account.address, relayer.account.address, escrow] as const;
    const before = await balances(...who);
    const receipt = await ok(call(relayer, "fundWithAuthorization", s.args()));
    const after = await balances(...who);
    expect(after.map((a, i) => a - (before[i] ?? 0n))).toEqual([-40n * USDC, 0n, 40n * USDC]);

    const funded = events(receipt).find((e) => e.eventName === "Funded");
    expect(funded?.args).toMatchObject({
      dealKey: s.key,
      brand: gaslessBrand.account.address,
      dealRef: s.ref,
      total: 40n * USDC,
    });
    const d = await readDeal(c.pub, escrow, s.key);
    expect(d).toMatchObject({
      brand: gaslessBrand.account.address, // the signer, not the relayer
      evaluator: evaluator.account.address,
      deadline: s.deadline,
      funded: 40n * USDC,
      locked: 40n * USDC,
      milestoneCount: 2n,
    });
    expect(
      await c.pub.readContract({
        address: c.usdc,
        abi: mockUsdcAbi,
        functionName: "authorizationState",
        args: [gaslessBrand.account.address, fundingNonce(s.terms)],
      }),
    ).toBe(true);
  });

  it("refuses changed terms: the nonce no longer matches, so the token rejects the signature", async () => {
    const s = await signFunding();
    const before = await balances(gaslessBrand.account.address, escrow);
    const tampered = [
      { amounts: [25n * USDC, 15n * USDC] }, // same total, other split
      { amounts: [15n * USDC, 20n * USDC, 5n * USDC] },
      { evaluator: stranger.account.address },
      { deadline: s.deadline + DAY },
      { ref: newRef() }, // the same authorization for another deal
      { brand: relayer.account.address }, // under another funder's key
    ];
    for (const t of tampered)
      expect(await revertReason(call(relayer, "fundWithAuthorization", s.args(t)))).toBe(
        "FiatTokenV2: invalid signature",
      );
    // A larger total is refused too (value is part of the signed message).
    expect(
      await revertReason(
        call(relayer, "fundWithAuthorization", s.args({ amounts: [15n * USDC, 26n * USDC] })),
      ),
    ).toBe("FiatTokenV2: invalid signature");
    expect(await balances(gaslessBrand.account.address, escrow)).toEqual(before);
    expect((await readDeal(c.pub, escrow, s.key)).brand).toBe(zeroAddress);
  });

  it("refuses a replay, an expired authorization and a zero brand", async () => {
    const s = await signFunding();
    await ok(call(relayer, "fundWithAuthorization", s.args()));
    expect(await revertReason(call(relayer, "fundWithAuthorization", s.args()))).toBe("DealExists");
    expect(await revertReason(call(gaslessBrand, "fundWithAuthorization", s.args()))).toBe(
      "DealExists",
    );

    const expired = await signFunding({ validBefore: (await now()) - 1n });
    expect(await revertReason(call(relayer, "fundWithAuthorization", expired.args()))).toBe(
      "FiatTokenV2: authorization is expired",
    );
    const zeroBrand = expired.args();
    zeroBrand[1] = zeroAddress;
    expect(await revertReason(call(relayer, "fundWithAuthorization", zeroBrand))).toBe(
      "ZeroAddress",
    );
  });

  it("applies the same deal rules as fund", async () => {
    const bad = await signFunding({ amounts: [USDC, 0n] });
    expect(await revertReason(call(relayer, "fundWithAuthorization", bad.args()))).toBe(
      "ZeroAmount",
    );
    const past = await signFunding({ deadline: (await now()) - 1n });
    expect(await revertReason(call(relayer, "fundWithAuthorization", past.args()))).toBe(
      "DeadlineNotInFuture",
    );
  });
});

describe("squatting: a deal's key is its funder's", () => {
  it("a third party funding the brand's ref with junk terms gets its own key and does not block the brand", async () => {
    const ref = newRef();
    const junk = await fundDeal({
      by: stranger,
      ref,
      amounts: [1n],
      deadline: (await now()) + DAY,
    });
    expect(junk.key).toBe(keyOf(stranger.account.address, ref));
    expect((await readDeal(c.pub, escrow, junk.key)).brand).toBe(stranger.account.address);
    // The brand's key is untouched, and the brand funds it as if nothing happened.
    const brandKey = keyOf(brand.account.address, ref);
    expect(brandKey).not.toBe(junk.key);
    expect((await readDeal(c.pub, escrow, brandKey)).brand).toBe(zeroAddress);
    const mine = await fundDeal({ ref });
    expect(mine.key).toBe(brandKey);
    expect(await readDeal(c.pub, escrow, brandKey)).toMatchObject({
      brand: brand.account.address,
      funded: 60n * USDC,
      milestoneCount: 3n,
    });
    expect((await readDeal(c.pub, escrow, junk.key)).funded).toBe(1n);
  });

  it("a third party with the exact terms gets its own deal; it can neither cancel nor drain the brand's", async () => {
    const ref = newRef();
    const deadline = (await now()) + DAY;
    const copy = await fundDeal({ by: stranger, ref, deadline });
    const mine = await fundDeal({ ref, deadline });
    expect(copy.key).not.toBe(mine.key);
    expect((await readDeal(c.pub, escrow, mine.key)).brand).toBe(brand.account.address);

    expect(await revertReason(call(stranger, "cancel", [mine.key]))).toBe("NotBrand");
    expect(await revertReason(call(stranger, "refundExpired", [mine.key, 0n]))).toBe(
      "RefundNotYetAvailable",
    );
    // Its own copy it may cancel: the money goes back to it, not to the brand.
    const who = [stranger.account.address, brand.account.address] as const;
    const before = await balances(...who);
    await ok(call(stranger, "cancel", [copy.key]));
    const after = await balances(...who);
    expect(after.map((a, i) => a - (before[i] ?? 0n))).toEqual([60n * USDC, 0n]);
    expect(await readDeal(c.pub, escrow, mine.key)).toMatchObject({
      cancelled: false,
      locked: 60n * USDC,
    });
    // After deadline + grace anyone may return the brand's milestones, but only to the brand.
    await timeTravel(9n * DAY);
    const late = await balances(...who);
    await ok(call(stranger, "refundExpired", [mine.key, 2n]));
    const done = await balances(...who);
    expect(done.map((a, i) => a - (late[i] ?? 0n))).toEqual([0n, 30n * USDC]);
  });

  it("a third party cannot fund under the brand's key with the brand's signature for another ref or signer", async () => {
    const ref = newRef();
    const deadline = (await now()) + 7n * DAY;
    const amounts = [5n * USDC];
    const terms = {
      chainId: c.chainId,
      escrow,
      dealRef: ref,
      brand: gaslessBrand.account.address,
      evaluator: evaluator.account.address,
      deadline,
      amounts,
    };
    const validBefore = (await now()) + 3600n;
    // The stranger signs for itself: its funding is under its own key, whatever it names.
    const own = await stranger.signTypedData(
      receiveAuthorizationTypedData({
        ...terms,
        brand: stranger.account.address,
        usdc: c.usdc,
        validAfter: 0n,
        validBefore,
      }),
    );
    const args = (brandArg: Address, signature: Hex) => [
      ref,
      brandArg,
      evaluator.account.address,
      deadline,
      amounts,
      0n,
      validBefore,
      signature,
    ];
    // Naming the brand with the stranger's signature: the token refuses it.
    expect(
      await revertReason(
        call(relayer, "fundWithAuthorization", args(gaslessBrand.account.address, own)),
      ),
    ).toBe("FiatTokenV2: invalid signature");
    await ok(call(relayer, "fundWithAuthorization", args(stranger.account.address, own)));
    expect((await readDeal(c.pub, escrow, keyOf(gaslessBrand.account.address, ref))).brand).toBe(
      zeroAddress,
    );
    // The brand's own signature still funds the brand's key.
    const theirs = await gaslessBrand.signTypedData(
      receiveAuthorizationTypedData({ ...terms, usdc: c.usdc, validAfter: 0n, validBefore }),
    );
    await ok(call(relayer, "fundWithAuthorization", args(gaslessBrand.account.address, theirs)));
    expect((await readDeal(c.pub, escrow, keyOf(gaslessBrand.account.address, ref))).brand).toBe(
      gaslessBrand.account.address,
    );
  });
});

describe("assignCreator", () => {
  it("only the evaluator assigns, once, to a nonzero creator", async () => {
    const { key } = await fundDeal();
    const who = creator.account.address;
    for (const sender of [brand, creator, stranger])
      expect(await revertReason(call(sender, "assignCreator", [key, who]))).toBe("NotEvaluator");
    expect(await revertReason(call(evaluator, "assignCreator", [key, zeroAddress]))).toBe(
      "ZeroAddress",
    );
    const receipt = await ok(call(evaluator, "assignCreator", [key, who]));
    expect(events(receipt).map((e) => [e.eventName, e.args])).toEqual([
      ["CreatorAssigned", { dealKey: key, creator: who }],
    ]);
    expect((await readDeal(c.pub, escrow, key)).creator).toBe(who);
    expect(
      await revertReason(call(evaluator, "assignCreator", [key, stranger.account.address])),
    ).toBe("CreatorAlreadyAssigned");
    expect(await revertReason(call(evaluator, "assignCreator", [newKey(), who]))).toBe(
      "DealNotFound",
    );
  });

  it("is refused after the brand cancelled", async () => {
    const { key } = await fundDeal();
    await ok(call(brand, "cancel", [key]));
    expect(
      await revertReason(call(evaluator, "assignCreator", [key, creator.account.address])),
    ).toBe("DealIsCancelled");
  });
});

describe("release", () => {
  it("pays the payout to the creator and the remainder to the brand in one call", async () => {
    const { key } = await assignedDeal();
    const who = [creator.account.address, brand.account.address, escrow] as const;
    const before = await balances(...who);
    const hash = verdict("release-1");
    const receipt = await ok(call(evaluator, "release", [key, 1n, 14n * USDC, hash]));
    const after = await balances(...who);
    expect(after.map((a, i) => a - (before[i] ?? 0n))).toEqual([
      14n * USDC,
      6n * USDC,
      -20n * USDC,
    ]);

    expect(events(receipt).map((e) => [e.eventName, e.args])).toEqual([
      [
        "Released",
        {
          dealKey: key,
          index: 1n,
          creator: creator.account.address,
          payout: 14n * USDC,
          refund: 6n * USDC,
          verdictHash: hash,
        },
      ],
    ]);
    // Exactly two token transfers in that transaction: to the creator and to the brand.
    const transfers = parseEventLogs({
      abi: mockUsdcAbi,
      logs: receipt.logs,
      eventName: "Transfer",
    });
    expect(transfers.map((t) => [t.args.from, t.args.to, t.args.value])).toEqual([
      [escrow, creator.account.address, 14n * USDC],
      [escrow, brand.account.address, 6n * USDC],
    ]);
    expect(await milestone(key, 1n)).toEqual([20n * USDC, MilestoneState.Released]);
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({
      funded: 60n * USDC,
      released: 14n * USDC,
      refunded: 6n * USDC,
      locked: 40n * USDC,
    });
  });

  it("skips the zero transfer for a full or a zero payout", async () => {
    const { key } = await assignedDeal();
    const full = await ok(call(evaluator, "release", [key, 0n, 10n * USDC, verdict("full")]));
    const zero = await ok(call(evaluator, "release", [key, 2n, 0n, verdict("zero")]));
    const transfers = (r: TransactionReceipt) =>
      parseEventLogs({ abi: mockUsdcAbi, logs: r.logs, eventName: "Transfer" }).map((t) => [
        t.args.to,
        t.args.value,
      ]);
    expect(transfers(full)).toEqual([[creator.account.address, 10n * USDC]]);
    expect(transfers(zero)).toEqual([[brand.account.address, 30n * USDC]]);
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({
      released: 10n * USDC,
      refunded: 30n * USDC,
      locked: 20n * USDC,
    });
  });

  it("refuses a second release, a payout above the amount, a zero verdict and a bad index", async () => {
    const { key } = await assignedDeal();
    await ok(call(evaluator, "release", [key, 0n, 5n * USDC, verdict("once")]));
    expect(
      await revertReason(call(evaluator, "release", [key, 0n, 5n * USDC, verdict("twice")])),
    ).toBe("MilestoneNotLocked");
    expect(await revertReason(call(evaluator, "release", [key, 0n, 0n, verdict("again")]))).toBe(
      "MilestoneNotLocked",
    );
    expect(
      await revertReason(call(evaluator, "release", [key, 1n, 20n * USDC + 1n, verdict("big")])),
    ).toBe("PayoutExceedsAmount");
    expect(await revertReason(call(evaluator, "release", [key, 1n, USDC, zeroHash]))).toBe(
      "ZeroVerdictHash",
    );
    expect(await revertReason(call(evaluator, "release", [key, 3n, USDC, verdict("idx")]))).toBe(
      "InvalidMilestone",
    );
    expect(await revertReason(call(evaluator, "release", [newKey(), 0n, USDC, verdict("x")]))).toBe(
      "DealNotFound",
    );
  });

  it("only the evaluator releases, and only after a creator is assigned", async () => {
    const { key } = await fundDeal();
    expect(await revertReason(call(evaluator, "release", [key, 0n, USDC, verdict("early")]))).toBe(
      "CreatorNotAssigned",
    );
    await ok(call(evaluator, "assignCreator", [key, creator.account.address]));
    for (const sender of [brand, creator, stranger, relayer])
      expect(await revertReason(call(sender, "release", [key, 0n, USDC, verdict("who")]))).toBe(
        "NotEvaluator",
      );
    await ok(call(evaluator, "release", [key, 0n, USDC, verdict("evaluator")]));
  });

  it("still works after the deadline within the grace period, and is refused after it", async () => {
    const { key, deadline } = await assignedDeal({ deadline: (await now()) + DAY });
    await timeTravel(DAY + 3n * DAY); // past the deadline, inside the grace period
    await ok(call(evaluator, "release", [key, 0n, USDC, verdict("late")]));
    await timeTravel(5n * DAY); // past deadline + 7 days
    expect((await now()) > deadline + GRACE_PERIOD_SECONDS).toBe(true);
    expect(
      await revertReason(call(evaluator, "release", [key, 1n, USDC, verdict("too late")])),
    ).toBe("ReleaseWindowClosed");
  });
});

describe("releaseBatch", () => {
  type Item = { dealKey: Hex; index: bigint; payout: bigint; verdictHash: Hex };
  const item = (dealKey: Hex, index: bigint, payout: bigint, label: string): Item => ({
    dealKey,
    index,
    payout,
    verdictHash: verdict(label),
  });
  /** The batch's outcome per item, in order: released, or skipped with release()'s refusal. */
  const outcomes = (receipt: TransactionReceipt) =>
    events(receipt).flatMap((e) => {
      if (e.eventName === "Released") return [["Released", e.args.dealKey, e.args.index]];
      if (e.eventName === "ReleaseSkipped")
        return [
          [
            decodeErrorResult({ abi: milestoneEscrowAbi, data: e.args.reason }).errorName,
            e.args.dealKey,
            e.args.index,
          ],
        ];
      return [];
    });

  it("releases every item, across deals, exactly as release() would, in one transaction", async () => {
    const a = await assignedDeal();
    const b = await assignedDeal();
    const who = [creator.account.address, brand.account.address, escrow] as const;
    const before = await balances(...who);
    const items = [
      item(a.key, 0n, 10n * USDC, "a0"),
      item(a.key, 2n, 15n * USDC, "a2"),
      item(b.key, 1n, 0n, "b1"),
    ];
    const { result } = await c.pub.simulateContract({
      account: evaluator.account,
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "releaseBatch",
      args: [items],
    });
    expect(result).toBe(3n);
    const receipt = await ok(call(evaluator, "releaseBatch", [items]));
    const released = events(receipt).filter((e) => e.eventName === "Released");
    expect(released.map((e) => e.args)).toEqual([
      {
        dealKey: a.key,
        index: 0n,
        creator: creator.account.address,
        payout: 10n * USDC,
        refund: 0n,
        verdictHash: verdict("a0"),
      },
      {
        dealKey: a.key,
        index: 2n,
        creator: creator.account.address,
        payout: 15n * USDC,
        refund: 15n * USDC,
        verdictHash: verdict("a2"),
      },
      {
        dealKey: b.key,
        index: 1n,
        creator: creator.account.address,
        payout: 0n,
        refund: 20n * USDC,
        verdictHash: verdict("b1"),
      },
    ]);
    // Each release has its own log in the receipt (what a settlement records).
    expect(new Set(released.map((e) => e.logIndex)).size).toBe(3);
    const after = await balances(...who);
    expect(after.map((x, i) => x - (before[i] ?? 0n))).toEqual([
      25n * USDC,
      35n * USDC,
      -60n * USDC,
    ]);
    expect(await milestone(a.key, 0n)).toEqual([10n * USDC, MilestoneState.Released]);
    expect(await milestone(a.key, 1n)).toEqual([20n * USDC, MilestoneState.Locked]);
    expect(await readDeal(c.pub, escrow, a.key)).toMatchObject({
      released: 25n * USDC,
      refunded: 15n * USDC,
      locked: 20n * USDC,
    });
    expect(await readDeal(c.pub, escrow, b.key)).toMatchObject({
      released: 0n,
      refunded: 20n * USDC,
      locked: 40n * USDC,
    });
  });

  it("skips each item release() would refuse, with its reason, and still releases the others", async () => {
    const a = await assignedDeal();
    const unassigned = await fundDeal();
    // A deal whose evaluator is someone else: the batch's sender may not release it.
    const foreign = await ok(
      call(brand, "fund", [newRef(), stranger.account.address, (await now()) + DAY, [USDC]]),
    );
    const foreignKey = events(foreign).find((e) => e.eventName === "Funded")?.args.dealKey as Hex;
    await ok(call(stranger, "assignCreator", [foreignKey, creator.account.address]));
    await ok(call(evaluator, "release", [a.key, 1n, USDC, verdict("before")]));
    const items = [
      item(a.key, 0n, 4n * USDC, "ok"),
      item(a.key, 1n, USDC, "already released"),
      item(a.key, 0n, 4n * USDC, "the same milestone again"),
      item(a.key, 2n, 30n * USDC + 1n, "above its amount"),
      { ...item(a.key, 2n, USDC, "zero"), verdictHash: zeroHash },
      item(a.key, 3n, USDC, "no such index"),
      item(newKey(), 0n, USDC, "no such deal"),
      item(unassigned.key, 0n, USDC, "no creator yet"),
      item(foreignKey, 0n, USDC, "another evaluator's"),
      item(a.key, 2n, 30n * USDC, "ok too"),
    ];
    const creatorBefore = await c.balanceOf(creator.account.address);
    const receipt = await ok(call(evaluator, "releaseBatch", [items]));
    expect(outcomes(receipt)).toEqual([
      ["Released", a.key, 0n],
      ["MilestoneNotLocked", a.key, 1n],
      ["MilestoneNotLocked", a.key, 0n],
      ["PayoutExceedsAmount", a.key, 2n],
      ["ZeroVerdictHash", a.key, 2n],
      ["InvalidMilestone", a.key, 3n],
      ["DealNotFound", items[6]?.dealKey, 0n],
      ["CreatorNotAssigned", unassigned.key, 0n],
      ["NotEvaluator", foreignKey, 0n],
      ["Released", a.key, 2n],
    ]);
    // Paid once each: the repeated item moved nothing.
    expect((await c.balanceOf(creator.account.address)) - creatorBefore).toBe(34n * USDC);
    expect(await readDeal(c.pub, escrow, a.key)).toMatchObject({ locked: 0n });
    expect(await readDeal(c.pub, escrow, unassigned.key)).toMatchObject({ locked: 60n * USDC });
    expect(await readDeal(c.pub, escrow, foreignKey)).toMatchObject({ locked: USDC });

    // The same batch again: everything is skipped, nothing moves, the transaction succeeds.
    const again = await ok(call(evaluator, "releaseBatch", [items]));
    expect(outcomes(again).filter(([name]) => name === "Released")).toEqual([]);
    expect((await c.balanceOf(creator.account.address)) - creatorBefore).toBe(34n * USDC);
  });

  it("skips a refunded milestone and one past its release window", async () => {
    const { key } = await assignedDeal({ deadline: (await now()) + DAY });
    await timeTravel(DAY + GRACE_PERIOD_SECONDS + 1n);
    await ok(call(stranger, "refundExpired", [key, 0n]));
    const receipt = await ok(
      call(evaluator, "releaseBatch", [
        [item(key, 0n, USDC, "refunded"), item(key, 1n, USDC, "too late")],
      ]),
    );
    expect(outcomes(receipt)).toEqual([
      ["MilestoneNotLocked", key, 0n],
      ["ReleaseWindowClosed", key, 1n],
    ]);
    expect(await milestone(key, 1n)).toEqual([20n * USDC, MilestoneState.Locked]);
  });

  it("refuses an empty batch and one above MAX_BATCH; a stranger's batch releases nothing", async () => {
    const { key } = await assignedDeal();
    expect(await revertReason(call(evaluator, "releaseBatch", [[]]))).toBe("InvalidBatchSize");
    const max = await c.pub.readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "MAX_BATCH",
    });
    const tooMany = Array.from({ length: Number(max) + 1 }, () => item(key, 0n, USDC, "many"));
    expect(await revertReason(call(evaluator, "releaseBatch", [tooMany]))).toBe("InvalidBatchSize");
    const receipt = await ok(
      call(stranger, "releaseBatch", [[item(key, 0n, USDC, "s0"), item(key, 1n, USDC, "s1")]]),
    );
    expect(outcomes(receipt)).toEqual([
      ["NotEvaluator", key, 0n],
      ["NotEvaluator", key, 1n],
    ]);
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({ locked: 60n * USDC });
  });

  it("releaseBatchItem is the escrow's own: nobody else calls it, the evaluator included", async () => {
    const { key } = await assignedDeal();
    for (const sender of [evaluator, stranger])
      expect(
        await revertReason(
          call(sender, "releaseBatchItem", [sender.account.address, item(key, 0n, USDC, "direct")]),
        ),
      ).toBe("NotSelf");
    expect(await milestone(key, 0n)).toEqual([10n * USDC, MilestoneState.Locked]);
  });

  it("an item run out of gas reverts the whole batch instead of being skipped", async () => {
    const { key } = await assignedDeal();
    const items = [item(key, 0n, USDC, "g0"), item(key, 1n, USDC, "g1"), item(key, 2n, USDC, "g2")];
    const one = await c.pub.estimateContractGas({
      account: evaluator.account,
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "releaseBatch",
      args: [items.slice(0, 1)],
    });
    // Enough for the first item and part of the second.
    const reason = await revertReason(
      c.pub.simulateContract({
        account: evaluator.account,
        address: escrow,
        abi: milestoneEscrowAbi,
        functionName: "releaseBatch",
        args: [items],
        gas: one + 60_000n,
      }),
    );
    expect(reason).toBe("BatchItemFailed");
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({ locked: 60n * USDC });
  });
});

describe("releaseWithSig", () => {
  async function signRelease(
    signer: ChainWalletClient,
    p: { key: Hex; index: bigint; payout: bigint; hash?: Hex; sigDeadline?: bigint },
  ) {
    const verdictHash = p.hash ?? verdict(`sig:${p.index}:${p.payout}`);
    const sigDeadline = p.sigDeadline ?? (await now()) + 3600n;
    const signature = await signer.signTypedData(
      releaseTypedData({
        chainId: c.chainId,
        escrow,
        dealKey: p.key,
        index: p.index,
        payout: p.payout,
        verdictHash,
        deadline: sigDeadline,
      }),
    );
    return [p.key, p.index, p.payout, verdictHash, sigDeadline, signature] as const;
  }

  it("a relayer submits the evaluator's signed release", async () => {
    const { key } = await assignedDeal();
    const args = await signRelease(evaluator, { key, index: 2n, payout: 21n * USDC });
    const who = [creator.account.address, brand.account.address, relayer.account.address] as const;
    const before = await balances(...who);
    const receipt = await ok(call(relayer, "releaseWithSig", args));
    const after = await balances(...who);
    expect(after.map((a, i) => a - (before[i] ?? 0n))).toEqual([21n * USDC, 9n * USDC, 0n]);
    expect(events(receipt)[0]?.args).toEqual({
      dealKey: key,
      index: 2n,
      creator: creator.account.address,
      payout: 21n * USDC,
      refund: 9n * USDC,
      verdictHash: args[3],
    });
  });

  it("refuses a wrong signer, altered terms and an expired signature", async () => {
    const { key } = await assignedDeal();
    for (const signer of [brand, creator, relayer]) {
      const args = await signRelease(signer, { key, index: 0n, payout: USDC });
      expect(await revertReason(call(relayer, "releaseWithSig", args))).toBe("InvalidSignature");
    }
    const [k, index, , hash, sigDeadline, signature] = await signRelease(evaluator, {
      key,
      index: 0n,
      payout: USDC,
    });
    expect(
      await revertReason(
        call(relayer, "releaseWithSig", [k, index, 10n * USDC, hash, sigDeadline, signature]),
      ),
    ).toBe("InvalidSignature");
    expect(
      await revertReason(
        call(relayer, "releaseWithSig", [k, 1n, USDC, hash, sigDeadline, signature]),
      ),
    ).toBe("InvalidSignature");
    expect(
      await revertReason(
        call(relayer, "releaseWithSig", [k, index, USDC, hash, sigDeadline + 1n, signature]),
      ),
    ).toBe("InvalidSignature");

    const expired = await signRelease(evaluator, {
      key,
      index: 0n,
      payout: USDC,
      sigDeadline: (await now()) - 1n,
    });
    expect(await revertReason(call(relayer, "releaseWithSig", expired))).toBe("SignatureExpired");
    expect((await milestone(key, 0n))[1]).toBe(MilestoneState.Locked);
  });

  it("a signature pays once: its replay and a renewed signature for the same milestone are refused", async () => {
    const { key } = await assignedDeal();
    const first = await signRelease(evaluator, { key, index: 1n, payout: 5n * USDC });
    await ok(call(relayer, "releaseWithSig", first));
    expect(await revertReason(call(relayer, "releaseWithSig", first))).toBe("MilestoneNotLocked");
    const renewed = await signRelease(evaluator, {
      key,
      index: 1n,
      payout: 20n * USDC,
      sigDeadline: (await now()) + 7200n,
    });
    expect(await revertReason(call(relayer, "releaseWithSig", renewed))).toBe("MilestoneNotLocked");
    expect(await revertReason(call(evaluator, "release", [key, 1n, USDC, verdict("direct")]))).toBe(
      "MilestoneNotLocked",
    );
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({
      released: 5n * USDC,
      refunded: 15n * USDC,
    });
  });

  it("applies the release rules: creator assigned, payout bounded, window open", async () => {
    const { key } = await fundDeal({ deadline: (await now()) + DAY });
    const early = await signRelease(evaluator, { key, index: 0n, payout: USDC });
    expect(await revertReason(call(relayer, "releaseWithSig", early))).toBe("CreatorNotAssigned");
    await ok(call(evaluator, "assignCreator", [key, creator.account.address]));
    const big = await signRelease(evaluator, { key, index: 0n, payout: 11n * USDC });
    expect(await revertReason(call(relayer, "releaseWithSig", big))).toBe("PayoutExceedsAmount");
    await timeTravel(9n * DAY);
    const late = await signRelease(evaluator, { key, index: 0n, payout: USDC });
    expect(await revertReason(call(relayer, "releaseWithSig", late))).toBe("ReleaseWindowClosed");
  });

  it("a signature for another escrow does not verify here", async () => {
    const { key } = await assignedDeal();
    const verdictHash = verdict("domain");
    const sigDeadline = (await now()) + 3600n;
    const signature = await evaluator.signTypedData(
      releaseTypedData({
        chainId: c.chainId,
        escrow: c.usdc, // another verifying contract
        dealKey: key,
        index: 0n,
        payout: USDC,
        verdictHash,
        deadline: sigDeadline,
      }),
    );
    expect(
      await revertReason(
        call(relayer, "releaseWithSig", [key, 0n, USDC, verdictHash, sigDeadline, signature]),
      ),
    ).toBe("InvalidSignature");
  });
});

describe("cancel", () => {
  it("the brand cancels before a creator is assigned and gets every locked milestone back", async () => {
    const { key, amounts } = await fundDeal();
    const [brandBefore, escrowBefore] = await balances(brand.account.address, escrow);
    const receipt = await ok(call(brand, "cancel", [key]));
    const [brandAfter, escrowAfter] = await balances(brand.account.address, escrow);
    expect(brandAfter - brandBefore).toBe(60n * USDC);
    expect(escrowBefore - escrowAfter).toBe(60n * USDC);
    expect(events(receipt).map((e) => [e.eventName, e.args])).toEqual([
      ...amounts.map((amount, i) => ["Refunded", { dealKey: key, index: BigInt(i), amount }]),
      ["Cancelled", { dealKey: key, refunded: 60n * USDC }],
    ]);
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({
      cancelled: true,
      funded: 60n * USDC,
      released: 0n,
      refunded: 60n * USDC,
      locked: 0n,
    });
    for (const i of [0n, 1n, 2n])
      expect((await milestone(key, i))[1]).toBe(MilestoneState.Refunded);
    expect(await revertReason(call(brand, "cancel", [key]))).toBe("DealIsCancelled");
  });

  it("is refused after a creator is assigned, and to anyone but the brand", async () => {
    const open = await fundDeal();
    for (const sender of [evaluator, creator, stranger])
      expect(await revertReason(call(sender, "cancel", [open.key]))).toBe("NotBrand");
    const { key } = await assignedDeal();
    expect(await revertReason(call(brand, "cancel", [key]))).toBe("CreatorAlreadyAssigned");
    expect(await revertReason(call(brand, "cancel", [newKey()]))).toBe("DealNotFound");
  });

  it("after expiry refunds, refunds only what is still locked", async () => {
    const { key } = await fundDeal({ deadline: (await now()) + DAY });
    await timeTravel(9n * DAY);
    await ok(call(stranger, "refundExpired", [key, 1n]));
    const receipt = await ok(call(brand, "cancel", [key]));
    const cancelled = events(receipt).find((e) => e.eventName === "Cancelled");
    expect(cancelled?.args).toEqual({ dealKey: key, refunded: 40n * USDC });
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({ refunded: 60n * USDC, locked: 0n });
  });
});

describe("refundExpired", () => {
  it("is refused until deadline + grace, then anyone returns the milestone to the brand, once", async () => {
    const { key, deadline } = await assignedDeal({ deadline: (await now()) + DAY });
    await ok(call(evaluator, "release", [key, 0n, 4n * USDC, verdict("before expiry")]));
    expect(await revertReason(call(stranger, "refundExpired", [key, 1n]))).toBe(
      "RefundNotYetAvailable",
    );
    await timeTravel(DAY + 2n * DAY); // past the deadline, inside the grace period
    expect(await revertReason(call(stranger, "refundExpired", [key, 1n]))).toBe(
      "RefundNotYetAvailable",
    );
    await timeTravel(6n * DAY);
    expect((await now()) > deadline + GRACE_PERIOD_SECONDS).toBe(true);

    const who = [brand.account.address, stranger.account.address, creator.account.address] as const;
    const before = await balances(...who);
    const receipt = await ok(call(stranger, "refundExpired", [key, 1n]));
    const after = await balances(...who);
    expect(after.map((a, i) => a - (before[i] ?? 0n))).toEqual([20n * USDC, 0n, 0n]);
    expect(events(receipt).map((e) => [e.eventName, e.args])).toEqual([
      ["Refunded", { dealKey: key, index: 1n, amount: 20n * USDC }],
    ]);
    expect(await revertReason(call(stranger, "refundExpired", [key, 1n]))).toBe(
      "MilestoneNotLocked",
    );
    // A released milestone is not refundable; an unknown index or deal is refused.
    expect(await revertReason(call(brand, "refundExpired", [key, 0n]))).toBe("MilestoneNotLocked");
    expect(await revertReason(call(brand, "refundExpired", [key, 3n]))).toBe("InvalidMilestone");
    expect(await revertReason(call(brand, "refundExpired", [newKey(), 0n]))).toBe("DealNotFound");
    await ok(call(evaluator, "refundExpired", [key, 2n]));
    expect(await readDeal(c.pub, escrow, key)).toMatchObject({
      funded: 60n * USDC,
      released: 4n * USDC,
      refunded: 56n * USDC,
      locked: 0n,
    });
  });
});

describe("the escrow's money", () => {
  it("only ever left to the deal's creator or the deal's brand, matching the events", async () => {
    const logs = await c.pub.getContractEvents({
      address: c.usdc,
      abi: mockUsdcAbi,
      eventName: "Transfer",
      fromBlock: 0n,
    });
    const outgoing = logs.filter((l) => l.args.from && isAddressEqual(l.args.from, escrow));
    expect(outgoing.length).toBeGreaterThan(10);
    const byTx = new Map<Hex, typeof outgoing>();
    for (const l of outgoing)
      byTx.set(l.transactionHash, [...(byTx.get(l.transactionHash) ?? []), l]);

    for (const [tx, transfers] of byTx) {
      const receipt = await c.pub.getTransactionReceipt({ hash: tx });
      const escrowEvents = parseEventLogs({ abi: milestoneEscrowAbi, logs: receipt.logs });
      const paid = new Map<Address, bigint>();
      for (const e of escrowEvents) {
        if (e.eventName === "Released") {
          const d = await readDeal(c.pub, escrow, e.args.dealKey);
          expect(e.args.creator).toBe(d.creator);
          paid.set(d.creator, (paid.get(d.creator) ?? 0n) + e.args.payout);
          paid.set(d.brand, (paid.get(d.brand) ?? 0n) + e.args.refund);
        } else if (e.eventName === "Refunded") {
          const d = await readDeal(c.pub, escrow, e.args.dealKey);
          paid.set(d.brand, (paid.get(d.brand) ?? 0n) + e.args.amount);
        }
      }
      const sent = new Map<Address, bigint>();
      for (const t of transfers) {
        const to = t.args.to as Address;
        sent.set(to, (sent.get(to) ?? 0n) + (t.args.value ?? 0n));
      }
      for (const [to, amount] of paid) if (amount === 0n) paid.delete(to);
      expect(sent).toEqual(paid);
    }
  });
});
