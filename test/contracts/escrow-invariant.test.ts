import {
  type Address,
  decodeErrorResult,
  type Hex,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  toHex,
  zeroAddress,
  zeroHash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { ChainWalletClient } from "@/lib/chain/clients";
import {
  dealIdFromRef,
  dealKey,
  dealRef,
  GRACE_PERIOD_SECONDS as GRACE,
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

// Random walk over the escrow: a seeded PRNG picks thousands of steps (fund, gasless fund,
// assign, release, signed release, cancel, refund, time jumps; valid and invalid callers,
// payouts, signatures, indexes and times). A model in this file predicts every step's outcome —
// success, or the exact revert reason — and every balance. After each step the chain must
// agree with the model; for every deal funded == released + refunded + locked, and the escrow
// holds exactly the sum of what is locked. Reverted steps must change nothing (a share of them
// is mined as reverted transactions, not only simulated).
//
// Deterministic: keys, deal ids, amounts and block times all come from the seed (the node mines
// each block exactly one second after the previous one). Reproduce a failure with
// ESCROW_INVARIANT_SEED=<seed printed> (and ESCROW_INVARIANT_STEPS to run longer).

const SEED = Number(process.env.ESCROW_INVARIANT_SEED ?? 0x5eed_2026) >>> 0;
const STEPS = Number(process.env.ESCROW_INVARIANT_STEPS ?? 2_000);
const FULL_CHECK_EVERY = 400;
const GENESIS = 2_000_000_000n;
const HOUR = 3_600n;
const DAY = 86_400n;
const GAS = 1_500_000n;

/** mulberry32: small, fast, good enough to drive a test. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    big: (lo: bigint, hi: bigint) =>
      lo +
      (((BigInt(Math.floor(next() * 2 ** 32)) << 21n) + BigInt(Math.floor(next() * 2 ** 21))) %
        (hi - lo + 1n)),
    pick: <T>(xs: readonly T[]): T => {
      const x = xs[Math.floor(next() * xs.length)];
      if (x === undefined) throw new Error("pick from an empty list");
      return x;
    },
    hex32: (): Hex =>
      `0x${Array.from({ length: 8 }, () =>
        Math.floor(next() * 2 ** 32)
          .toString(16)
          .padStart(8, "0"),
      ).join("")}`,
    uuid: () => {
      const h = Array.from({ length: 4 }, () =>
        Math.floor(next() * 2 ** 32)
          .toString(16)
          .padStart(8, "0"),
      ).join("");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
  };
}

interface ModelDeal {
  /** The ref it was funded with; its key is dealKey(brand, ref). */
  ref: Hex;
  key: Hex;
  brand: Address;
  /** Where unreleased money goes: the funder, or the address fundWithRefundAddress named. */
  refundTo: Address;
  evaluator: Address;
  creator: Address | null;
  deadline: bigint;
  cancelled: boolean;
  amounts: bigint[];
  states: MilestoneState[];
  funded: bigint;
  released: bigint;
  refunded: bigint;
}

const lockedOf = (d: ModelDeal) =>
  d.amounts.reduce((sum, a, i) => (d.states[i] === MilestoneState.Locked ? sum + a : sum), 0n);

/** One step: who sends what, what the model expects, and its effect when it succeeds. */
interface Step {
  label: string;
  sender: ChainWalletClient;
  functionName: string;
  args: readonly unknown[];
  /** Revert reason the model predicts, or null for success. */
  expected: string | null;
  apply: () => void;
  deal: ModelDeal | null;
  /** Checks a successful step's receipt against the model (e.g. a batch's per-item outcomes). */
  check?: (receipt: TransactionReceipt) => void;
}

let c: EscrowChain;
let rng: ReturnType<typeof prng>;
let brands: ChainWalletClient[];
let evaluators: ChainWalletClient[];
let creators: ChainWalletClient[];
let relayer: ChainWalletClient;
let stranger: ChainWalletClient;
let everyone: ChainWalletClient[];
const nonces = new Map<Address, number>();

const deals: ModelDeal[] = [];
const byKey = new Map<Hex, ModelDeal>();
const balance = new Map<Address, bigint>();
/** Latest block's timestamp; the next transaction is mined at t + 1. */
let t = 0n;
const usedAuthorizations: Array<{ sender: ChainWalletClient; args: readonly unknown[] }> = [];
const usedReleaseSigs: Array<readonly unknown[]> = [];
const counts = new Map<string, number>();

const credit = (who: Address, amount: bigint) =>
  balance.set(who, (balance.get(who) ?? 0n) + amount);

const address = (w: ChainWalletClient) => w.account.address;

/** A deal: mostly one where the step can do something (`useful`), sometimes any. */
function pickDeal(useful: (d: ModelDeal) => boolean = () => true): ModelDeal | null {
  if (deals.length === 0) return null;
  const roll = rng.next();
  const candidates =
    roll < 0.75
      ? deals.filter(useful)
      : roll < 0.9
        ? deals.filter((d) => d.states.includes(MilestoneState.Locked))
        : deals;
  return rng.pick(candidates.length > 0 ? candidates : deals);
}

const hasLocked = (d: ModelDeal) => d.states.includes(MilestoneState.Locked);
const windowOpen = (d: ModelDeal) => t + 1n <= d.deadline + GRACE;
const releasable = (d: ModelDeal) => d.creator !== null && hasLocked(d) && windowOpen(d);
const assignable = (d: ModelDeal) => d.creator === null && !d.cancelled && windowOpen(d);
const refundable = (d: ModelDeal) => hasLocked(d) && !windowOpen(d);

/** A key nobody can have funded (the zero address never sends). */
function unknownKey(): Hex {
  return dealKey(zeroAddress, rng.uuid());
}

function unknownRef(): Hex {
  return dealRef(rng.uuid());
}

/** The escrow's key of `funder`'s deal `ref`. */
const keyOf = (funder: Address, ref: Hex): Hex => dealKey(funder, dealIdFromRef(ref));

// ---- the model: each function's checks in the contract's order -------------------------------

function recordErrors(
  key: Hex,
  evaluator: Address,
  deadline: bigint,
  amounts: bigint[],
): string | null {
  if (byKey.has(key)) return "DealExists";
  if (evaluator === zeroAddress) return "ZeroAddress";
  if (amounts.length === 0 || amounts.length > 50) return "InvalidMilestoneCount";
  if (deadline <= t + 1n) return "DeadlineNotInFuture";
  if (amounts.includes(0n)) return "ZeroAmount";
  return null;
}

function recordDeal(
  ref: Hex,
  brand: Address,
  evaluator: Address,
  deadline: bigint,
  amounts: bigint[],
  refundTo: Address = brand,
) {
  const total = amounts.reduce((s, a) => s + a, 0n);
  const key = keyOf(brand, ref);
  const d: ModelDeal = {
    ref,
    key,
    brand,
    refundTo,
    evaluator,
    creator: null,
    deadline,
    cancelled: false,
    amounts,
    states: amounts.map(() => MilestoneState.Locked),
    funded: total,
    released: 0n,
    refunded: 0n,
  };
  deals.push(d);
  byKey.set(key, d);
  credit(brand, -total);
  credit(c.escrow, total);
}

function releaseErrors(
  d: ModelDeal,
  index: bigint,
  payout: bigint,
  verdictHash: Hex,
): string | null {
  if (!d.creator) return "CreatorNotAssigned";
  if (index >= BigInt(d.amounts.length)) return "InvalidMilestone";
  if (d.states[Number(index)] !== MilestoneState.Locked) return "MilestoneNotLocked";
  if (payout > (d.amounts[Number(index)] ?? 0n)) return "PayoutExceedsAmount";
  if (t + 1n > d.deadline + GRACE) return "ReleaseWindowClosed";
  if (verdictHash === zeroHash) return "ZeroVerdictHash";
  return null;
}

function applyRelease(d: ModelDeal, index: bigint, payout: bigint) {
  const i = Number(index);
  const amount = d.amounts[i] ?? 0n;
  d.states[i] = MilestoneState.Released;
  d.released += payout;
  d.refunded += amount - payout;
  credit(d.creator as Address, payout);
  credit(d.refundTo, amount - payout);
  credit(c.escrow, -amount);
}

function randomAmounts(): bigint[] {
  const roll = rng.next();
  const n = roll < 0.03 ? 0 : roll < 0.05 ? 51 : rng.int(1, 6);
  const amounts = Array.from({ length: n }, () =>
    rng.chance(0.1) ? rng.big(1n, 5n) : rng.big(1n, 500_000_000n),
  );
  if (n > 0 && n <= 50 && rng.chance(0.04)) amounts[rng.int(0, n - 1)] = 0n;
  return amounts;
}

function randomDeadline(): bigint {
  const roll = rng.next();
  if (roll < 0.04) return t + 1n; // the next block's own second: not in the future
  if (roll < 0.08) return t + 2n; // one second after it: accepted
  if (roll < 0.12) return t - rng.big(0n, DAY);
  return t + rng.big(HOUR, 12n * DAY);
}

function fundStep(): Step {
  const brand = rng.chance(0.9) ? rng.pick(brands) : stranger;
  // Sometimes an existing deal's ref: its own funder's second funding (DealExists), or
  // someone else's (squatting), which lands under the sender's own key.
  const existing = pickDeal();
  const ref = existing && rng.chance(0.12) ? existing.ref : unknownRef();
  const key = keyOf(address(brand), ref);
  const evaluator = rng.chance(0.96) ? address(rng.pick(evaluators)) : zeroAddress;
  const deadline = randomDeadline();
  const amounts = randomAmounts();
  if (rng.chance(0.35)) {
    // Naming another refund recipient (as a deposit forwarder does): sometimes another
    // party of the walk, sometimes the zero address (refused).
    const refundTo = rng.chance(0.05) ? zeroAddress : address(rng.pick(everyone));
    return {
      label: "fundWithRefundAddress",
      sender: brand,
      functionName: "fundWithRefundAddress",
      args: [ref, evaluator, deadline, amounts, refundTo],
      expected:
        refundTo === zeroAddress ? "ZeroAddress" : recordErrors(key, evaluator, deadline, amounts),
      apply: () => recordDeal(ref, address(brand), evaluator, deadline, amounts, refundTo),
      deal: null,
    };
  }
  return {
    label: existing && ref === existing.ref ? "fund(known ref)" : "fund",
    sender: brand,
    functionName: "fund",
    args: [ref, evaluator, deadline, amounts],
    expected: recordErrors(key, evaluator, deadline, amounts),
    apply: () => recordDeal(ref, address(brand), evaluator, deadline, amounts),
    deal: null,
  };
}

async function fundWithAuthorizationStep(): Promise<Step> {
  const submitter = rng.chance(0.8) ? relayer : rng.pick(everyone);
  const previous = usedAuthorizations.length > 0 && rng.chance(0.06);
  if (previous) {
    // A replay of an authorization that already funded its deal.
    const { args } = rng.pick(usedAuthorizations.slice(-5));
    return {
      label: "fundWithAuthorization(replay)",
      sender: submitter,
      functionName: "fundWithAuthorization",
      args,
      expected: "DealExists",
      apply: () => {},
      deal: byKey.get(keyOf(args[1] as Address, args[0] as Hex)) ?? null,
    };
  }
  const brand = rng.pick(brands);
  const signer = rng.chance(0.95) ? brand : rng.pick(everyone);
  const existing = pickDeal();
  const ref = existing && rng.chance(0.08) ? existing.ref : unknownRef();
  const evaluator = rng.chance(0.97) ? address(rng.pick(evaluators)) : zeroAddress;
  const deadline = randomDeadline();
  const amounts = randomAmounts();
  const validBefore = rng.chance(0.08) ? t + rng.big(0n, 2n) : t + rng.big(10n, 2n * HOUR);
  const signature = await signer.signTypedData(
    receiveAuthorizationTypedData({
      chainId: c.chainId,
      escrow: c.escrow,
      usdc: c.usdc,
      dealRef: ref,
      brand: address(brand),
      evaluator,
      deadline,
      amounts,
      validAfter: 0n,
      validBefore,
    }),
  );

  // Sometimes the submitter changes the terms the brand signed.
  let submitted = {
    ref,
    brand: address(brand),
    evaluator,
    deadline,
    amounts: [...amounts],
  };
  let changed = false;
  if (rng.chance(0.15)) {
    const how = rng.int(0, 4);
    const a = submitted.amounts;
    if (how === 0 && a.length >= 2 && (a[0] ?? 0n) > 1n) {
      // Same total, another split.
      a[0] = (a[0] ?? 0n) - 1n;
      a[1] = (a[1] ?? 0n) + 1n;
      changed = true;
    } else if (how === 1 && evaluator !== address(stranger)) {
      submitted = { ...submitted, evaluator: address(stranger) };
      changed = true;
    } else if (how === 2) {
      submitted = { ...submitted, deadline: deadline + 1n };
      changed = true;
    } else if (how === 3) {
      submitted = { ...submitted, ref: unknownRef() };
      changed = true;
    } else if (how === 4) {
      const other = rng.pick(brands.filter((b) => b !== brand));
      submitted = { ...submitted, brand: address(other) };
      changed = true;
    }
  }
  const tampered = changed || signer !== brand;
  const args = [
    submitted.ref,
    submitted.brand,
    submitted.evaluator,
    submitted.deadline,
    submitted.amounts,
    0n,
    validBefore,
    signature,
  ] as const;
  let expected = recordErrors(
    keyOf(submitted.brand, submitted.ref),
    submitted.evaluator,
    submitted.deadline,
    submitted.amounts,
  );
  // Then the token: FiatToken's checks in its order (validAfter is 0, so always valid).
  if (!expected && t + 1n >= validBefore) expected = "FiatTokenV2: authorization is expired";
  if (!expected && tampered) expected = "FiatTokenV2: invalid signature";
  return {
    label: `fundWithAuthorization${tampered ? "(tampered)" : ""}`,
    sender: submitter,
    functionName: "fundWithAuthorization",
    args,
    expected,
    apply: () => {
      recordDeal(
        submitted.ref,
        submitted.brand,
        submitted.evaluator,
        submitted.deadline,
        submitted.amounts,
      );
      usedAuthorizations.push({ sender: submitter, args });
    },
    deal: null,
  };
}

function assignStep(): Step {
  const d = pickDeal(assignable);
  const key = d && rng.chance(0.95) ? d.key : unknownKey();
  const deal = byKey.get(key) ?? null;
  const sender =
    deal && rng.chance(0.85)
      ? (evaluators.find((e) => address(e) === deal.evaluator) ?? stranger)
      : rng.pick(everyone);
  const creator = rng.chance(0.96) ? address(rng.pick(creators)) : zeroAddress;
  let expected: string | null = null;
  if (!deal) expected = "DealNotFound";
  else if (address(sender) !== deal.evaluator) expected = "NotEvaluator";
  else if (deal.cancelled) expected = "DealIsCancelled";
  else if (deal.creator) expected = "CreatorAlreadyAssigned";
  else if (creator === zeroAddress) expected = "ZeroAddress";
  return {
    label: "assignCreator",
    sender,
    functionName: "assignCreator",
    args: [key, creator],
    expected,
    apply: () => {
      if (deal) deal.creator = creator;
    },
    deal,
  };
}

/** A milestone index (sometimes one past the end) and a payout (sometimes above the amount). */
function indexAndPayout(deal: ModelDeal | null): { index: bigint; payout: bigint } {
  if (!deal) return { index: 0n, payout: rng.big(0n, 1_000n) };
  const n = deal.amounts.length;
  const locked = deal.states.flatMap((s, i) => (s === MilestoneState.Locked ? [i] : []));
  const roll = rng.next();
  const i =
    roll < 0.08 ? n : locked.length > 0 && roll < 0.85 ? rng.pick(locked) : rng.int(0, n - 1);
  const amount = deal.amounts[i] ?? 1_000n;
  const p = rng.next();
  const payout =
    p < 0.1
      ? 0n
      : p < 0.25
        ? amount
        : p < 0.33
          ? amount + rng.big(1n, 1_000n)
          : rng.big(0n, amount);
  return { index: BigInt(i), payout };
}

function releaseStep(): Step {
  const d = pickDeal(releasable);
  const key = d && rng.chance(0.97) ? d.key : unknownKey();
  const deal = byKey.get(key) ?? null;
  const { index, payout } = indexAndPayout(deal);
  const sender =
    deal && rng.chance(0.85)
      ? (evaluators.find((e) => address(e) === deal.evaluator) ?? stranger)
      : rng.pick(everyone);
  const verdictHash = rng.chance(0.96) ? rng.hex32() : zeroHash;
  let expected: string | null = null;
  if (!deal) expected = "DealNotFound";
  else if (address(sender) !== deal.evaluator) expected = "NotEvaluator";
  else expected = releaseErrors(deal, index, payout, verdictHash);
  return {
    label: "release",
    sender,
    functionName: "release",
    args: [key, index, payout, verdictHash],
    expected,
    apply: () => deal && applyRelease(deal, index, payout),
    deal,
  };
}

/**
 * releaseBatch: 0–6 items over several deals (sometimes an unknown one, a repeated item, an
 * index past the end, a payout above the amount…). The model predicts each item in order —
 * released, or skipped with release()'s refusal, an earlier item of the same batch included —
 * and the receipt's events must say exactly that.
 */
function releaseBatchStep(): Step {
  const sender = rng.chance(0.85)
    ? rng.pick(evaluators)
    : rng.pick(everyone.filter((w) => !evaluators.includes(w)));
  const n = rng.chance(0.04) ? 0 : rng.int(1, 6);
  const items: Array<{ dealKey: Hex; index: bigint; payout: bigint; verdictHash: Hex }> = [];
  for (let i = 0; i < n; i++) {
    const previous = items.at(rng.int(0, Math.max(0, items.length - 1)));
    if (previous && rng.chance(0.12)) {
      items.push({ ...previous }); // the same milestone twice in one batch
      continue;
    }
    const d = pickDeal(releasable);
    const key = d && rng.chance(0.95) ? d.key : unknownKey();
    const { index, payout } = indexAndPayout(byKey.get(key) ?? null);
    items.push({
      dealKey: key,
      index,
      payout,
      verdictHash: rng.chance(0.96) ? rng.hex32() : zeroHash,
    });
  }
  // Each item's predicted outcome, in order: null for released, else the refusal.
  const inBatch = new Set<string>();
  const predicted = items.map((it) => {
    const deal = byKey.get(it.dealKey);
    if (!deal) return "DealNotFound";
    if (address(sender) !== deal.evaluator) return "NotEvaluator";
    let err = releaseErrors(deal, it.index, it.payout, it.verdictHash);
    // Released by an earlier item of this batch: no longer Locked (checked after the index).
    const id = `${it.dealKey}:${it.index}`;
    if (
      inBatch.has(id) &&
      (err === null ||
        ["PayoutExceedsAmount", "ReleaseWindowClosed", "ZeroVerdictHash"].includes(err))
    )
      err = "MilestoneNotLocked";
    if (err === null) inBatch.add(id);
    return err;
  });
  return {
    label: "releaseBatch",
    sender,
    functionName: "releaseBatch",
    args: [items],
    expected: n === 0 ? "InvalidBatchSize" : null,
    apply: () => {
      for (const [i, it] of items.entries()) {
        const deal = byKey.get(it.dealKey);
        if (predicted[i] === null && deal) applyRelease(deal, it.index, it.payout);
      }
    },
    deal: items.length > 0 ? (byKey.get(items[0]?.dealKey as Hex) ?? null) : null,
    check: (receipt) => {
      type Outcome = [Hex, bigint, string | null];
      const seen = parseEventLogs({ abi: milestoneEscrowAbi, logs: receipt.logs }).flatMap(
        (e): Outcome[] =>
          e.eventName === "Released"
            ? [[e.args.dealKey, e.args.index, null]]
            : e.eventName === "ReleaseSkipped"
              ? [
                  [
                    e.args.dealKey,
                    e.args.index,
                    decodeErrorResult({ abi: milestoneEscrowAbi, data: e.args.reason }).errorName,
                  ],
                ]
              : [],
      );
      expect(seen).toEqual(items.map((it, i) => [it.dealKey, it.index, predicted[i]]));
      for (const p of predicted) {
        const k = `releaseBatch item:${p ?? "released"}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    },
  };
}

async function releaseWithSigStep(): Promise<Step> {
  const submitter = rng.chance(0.7) ? relayer : rng.pick(everyone);
  if (usedReleaseSigs.length > 0 && rng.chance(0.06)) {
    // Replay of a signature that already paid.
    const args = rng.pick(usedReleaseSigs.slice(-3)); // recent: mostly not expired yet
    const deal = byKey.get(args[0] as Hex) as ModelDeal;
    const expected = t + 1n > (args[4] as bigint) ? "SignatureExpired" : "MilestoneNotLocked";
    return {
      label: "releaseWithSig(replay)",
      sender: submitter,
      functionName: "releaseWithSig",
      args,
      expected,
      apply: () => {},
      deal,
    };
  }
  const d = pickDeal(releasable);
  const key = d && rng.chance(0.97) ? d.key : unknownKey();
  const deal = byKey.get(key) ?? null;
  const { index, payout } = indexAndPayout(deal);
  const evaluator = deal
    ? (evaluators.find((e) => address(e) === deal.evaluator) ?? stranger)
    : rng.pick(evaluators);
  const signer = rng.chance(0.88) ? evaluator : rng.pick(everyone);
  const verdictHash = rng.chance(0.97) ? rng.hex32() : zeroHash;
  const sigDeadline = rng.chance(0.1) ? t - rng.big(0n, 100n) + 1n : t + rng.big(1n, 2n * HOUR);
  const signature = await signer.signTypedData(
    releaseTypedData({
      chainId: c.chainId,
      escrow: c.escrow,
      dealKey: key,
      index,
      payout,
      verdictHash,
      deadline: sigDeadline,
    }),
  );
  // Sometimes the submitter raises the payout the evaluator signed.
  const altered = rng.chance(0.08);
  const submittedPayout = altered ? payout + 1n : payout;
  let expected: string | null = null;
  if (!deal) expected = "DealNotFound";
  else if (t + 1n > sigDeadline) expected = "SignatureExpired";
  else if (address(signer) !== deal.evaluator || altered) expected = "InvalidSignature";
  else expected = releaseErrors(deal, index, submittedPayout, verdictHash);
  const args = [key, index, submittedPayout, verdictHash, sigDeadline, signature] as const;
  return {
    label: `releaseWithSig${altered ? "(altered)" : ""}`,
    sender: submitter,
    functionName: "releaseWithSig",
    args,
    expected,
    apply: () => {
      if (deal) applyRelease(deal, index, submittedPayout);
      usedReleaseSigs.push(args);
    },
    deal,
  };
}

function cancelStep(): Step {
  const d = pickDeal((x) => x.creator === null && !x.cancelled);
  const key = d && rng.chance(0.97) ? d.key : unknownKey();
  const deal = byKey.get(key) ?? null;
  const sender =
    deal && rng.chance(0.8)
      ? ([...brands, stranger].find((b) => address(b) === deal.brand) ?? stranger)
      : rng.pick(everyone);
  let expected: string | null = null;
  if (!deal) expected = "DealNotFound";
  else if (address(sender) !== deal.brand) expected = "NotBrand";
  else if (deal.cancelled) expected = "DealIsCancelled";
  else if (deal.creator) expected = "CreatorAlreadyAssigned";
  return {
    label: "cancel",
    sender,
    functionName: "cancel",
    args: [key],
    expected,
    apply: () => {
      if (!deal) return;
      const total = lockedOf(deal);
      deal.cancelled = true;
      deal.states = deal.states.map((s) =>
        s === MilestoneState.Locked ? MilestoneState.Refunded : s,
      );
      deal.refunded += total;
      credit(deal.refundTo, total);
      credit(c.escrow, -total);
    },
    deal,
  };
}

function refundExpiredStep(): Step {
  const d = pickDeal(refundable);
  const key = d && rng.chance(0.97) ? d.key : unknownKey();
  const deal = byKey.get(key) ?? null;
  const { index } = indexAndPayout(deal);
  const sender = rng.pick(everyone);
  let expected: string | null = null;
  if (!deal) expected = "DealNotFound";
  else if (index >= BigInt(deal.amounts.length)) expected = "InvalidMilestone";
  else if (deal.states[Number(index)] !== MilestoneState.Locked) expected = "MilestoneNotLocked";
  else if (t + 1n <= deal.deadline + GRACE) expected = "RefundNotYetAvailable";
  return {
    label: "refundExpired",
    sender,
    functionName: "refundExpired",
    args: [key, index],
    expected,
    apply: () => {
      if (!deal) return;
      const amount = deal.amounts[Number(index)] ?? 0n;
      deal.states[Number(index)] = MilestoneState.Refunded;
      deal.refunded += amount;
      credit(deal.refundTo, amount);
      credit(c.escrow, -amount);
    },
    deal,
  };
}

/** Moves the clock: a random jump, or to just before / at a deal's release-window edge. */
async function timeJump(): Promise<string> {
  const d = pickDeal(hasLocked);
  let target = t + rng.big(HOUR, 2n * DAY);
  if (d && rng.chance(0.4)) {
    // The next transaction then lands on the last second a release is possible, or the first
    // a refund is.
    const edge = d.deadline + GRACE - 1n + (rng.chance(0.5) ? 0n : 1n);
    if (edge > t) target = edge;
  }
  await c.rpc("evm_setNextBlockTimestamp", [Number(target)]);
  await c.rpc("evm_mine");
  const label = `timeJump(+${target - t}s)`;
  t = target;
  return label;
}

// ---- running and checking ------------------------------------------------------------------

async function nextNonce(w: ChainWalletClient): Promise<number> {
  const a = address(w);
  let n = nonces.get(a);
  if (n === undefined) n = await c.pub.getTransactionCount({ address: a });
  nonces.set(a, n + 1);
  return n;
}

async function receiptOf(hash: Hex): Promise<TransactionReceipt> {
  for (let i = 0; ; i++) {
    try {
      return await c.pub.getTransactionReceipt({ hash });
    } catch (err) {
      if (!(err instanceof TransactionReceiptNotFoundError) || i >= 2_000) throw err;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

async function send(s: Step): Promise<TransactionReceipt> {
  const hash = await s.sender.writeContract({
    address: c.escrow,
    abi: milestoneEscrowAbi,
    functionName: s.functionName,
    args: s.args,
    gas: GAS,
    maxFeePerGas: 50_000_000_000n,
    maxPriorityFeePerGas: 1n,
    nonce: await nextNonce(s.sender),
  } as unknown as Parameters<ChainWalletClient["writeContract"]>[0]);
  // Automine answers the send before the receipt can be read, and no later block would wake a
  // block watcher (viem's waitForTransactionReceipt): poll the receipt itself.
  const receipt = await receiptOf(hash);
  t += 1n;
  return receipt;
}

async function run(s: Step): Promise<void> {
  counts.set(
    `${s.label}:${s.expected ?? "ok"}`,
    (counts.get(`${s.label}:${s.expected ?? "ok"}`) ?? 0) + 1,
  );
  if (s.expected === null) {
    const receipt = await send(s);
    expect(receipt.status, `${s.label} should succeed`).toBe("success");
    s.apply();
    s.check?.(receipt);
    return;
  }
  const reason = await revertReason(
    c.pub.simulateContract({
      account: s.sender.account,
      address: c.escrow,
      abi: milestoneEscrowAbi,
      functionName: s.functionName,
      args: s.args,
      blockTag: "pending", // evaluated at the next block's timestamp, like a send
    } as unknown as Parameters<EscrowChain["pub"]["simulateContract"]>[0]),
  );
  expect(reason, s.label).toBe(s.expected);
  if (rng.chance(0.2)) {
    // Mined and reverted: must change nothing either (checked after the step).
    const receipt = await send(s);
    expect(receipt.status, `${s.label} mined`).toBe("reverted");
  }
}

function checkModel() {
  let lockedTotal = 0n;
  for (const d of deals) {
    const locked = lockedOf(d);
    expect(d.funded).toBe(d.released + d.refunded + locked);
    lockedTotal += locked;
  }
  expect(balance.get(c.escrow)).toBe(lockedTotal);
}

/**
 * Compares the chain with the model: the touched deal (all deals when `all`), and the token
 * balances of `parties` (every account when `all` or `everyBalance`).
 */
async function checkChain(
  touched: ModelDeal | null,
  parties: Address[],
  { all = false, everyBalance = false } = {},
) {
  const accounts =
    all || everyBalance
      ? [...everyone.map(address), c.escrow]
      : [...new Set([...parties, c.escrow])];
  const toCheck = all ? deals : touched ? [touched] : [];
  const [balances, views, recipients, milestones, latest] = await Promise.all([
    Promise.all(accounts.map((a) => c.balanceOf(a))),
    Promise.all(toCheck.map((d) => readDeal(c.batch, c.escrow, d.key))),
    Promise.all(
      toCheck.map((d) =>
        c.batch.readContract({
          address: c.escrow,
          abi: milestoneEscrowAbi,
          functionName: "refundRecipient",
          args: [d.key],
        }),
      ),
    ),
    Promise.all(
      toCheck.flatMap((d) =>
        d.amounts.map((_, i) =>
          c.batch.readContract({
            address: c.escrow,
            abi: milestoneEscrowAbi,
            functionName: "getMilestone",
            args: [d.key, BigInt(i)],
          }),
        ),
      ),
    ),
    c.batch.getBlock(),
  ]);
  expect(latest.timestamp, "block time").toBe(t);
  expect(Object.fromEntries(accounts.map((a, i) => [a, balances[i]])), "token balances").toEqual(
    Object.fromEntries(accounts.map((a) => [a, balance.get(a) ?? 0n])),
  );
  let m = 0;
  for (const [i, d] of toCheck.entries()) {
    const v = views[i];
    expect(v, d.key).toEqual({
      brand: d.brand,
      evaluator: d.evaluator,
      creator: d.creator ?? zeroAddress,
      deadline: d.deadline,
      cancelled: d.cancelled,
      funded: d.funded,
      released: d.released,
      refunded: d.refunded,
      locked: lockedOf(d),
      milestoneCount: BigInt(d.amounts.length),
    });
    expect(v?.funded).toBe((v?.released ?? 0n) + (v?.refunded ?? 0n) + (v?.locked ?? 0n));
    expect(recipients[i], `${d.key} refund recipient`).toBe(d.refundTo);
    for (const [j, amount] of d.amounts.entries())
      expect(milestones[m++], `${d.key}[${j}]`).toEqual([amount, d.states[j]]);
  }
  if (all) {
    const chainLocked = views.reduce((s, v) => s + v.locked, 0n);
    expect(balances.at(-1), "escrow balance == sum of locked").toBe(chainLocked);
  }
}

beforeAll(async () => {
  rng = prng(SEED);
  // Every block exactly one second after the previous one: time is part of the seed's replay.
  c = await startEscrowChain({ genesisTime: GENESIS, blockInterval: 1 });
  const key = (i: number) => keccak256(toHex(`escrow-invariant:${SEED}:${i}`));
  const wallets: ChainWalletClient[] = [];
  // Sequential: minting is sent by one deployer account.
  for (let i = 0; i < 10; i++)
    wallets.push(await c.actor(i < 3 || i === 9 ? 10n ** 15n : 0n, key(i)));
  brands = wallets.slice(0, 3);
  evaluators = wallets.slice(3, 5);
  creators = wallets.slice(5, 8);
  relayer = wallets[8] as ChainWalletClient;
  stranger = wallets[9] as ChainWalletClient;
  everyone = wallets;
  for (const w of [...brands, stranger]) await approveEscrow(c, w);
  for (const w of wallets) balance.set(address(w), await c.balanceOf(address(w)));
  balance.set(c.escrow, 0n);
  t = (await c.pub.getBlock()).timestamp;
  // Keys are derived from the seed: check they are what the seed says.
  expect(address(brands[0] as ChainWalletClient)).toBe(privateKeyToAccount(key(0)).address);
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

describe("MilestoneEscrow invariants under a random walk", () => {
  it(`holds for ${STEPS} seeded random steps (seed ${SEED})`, { timeout: 240_000 }, async () => {
    let step = 0;
    let label = "";
    try {
      for (step = 0; step < STEPS; step++) {
        const roll = rng.next();
        let s: Step | null = null;
        if (roll < 0.1) s = fundStep();
        else if (roll < 0.17) s = await fundWithAuthorizationStep();
        else if (roll < 0.3) s = assignStep();
        else if (roll < 0.46) s = releaseStep();
        else if (roll < 0.54) s = releaseBatchStep();
        else if (roll < 0.68) s = await releaseWithSigStep();
        else if (roll < 0.74) s = cancelStep();
        else if (roll < 0.93) s = refundExpiredStep();
        else label = await timeJump();
        if (s) {
          label = `${s.label} ${s.functionName}(${s.args.map(String).join(", ")}) by ${address(s.sender)} expecting ${s.expected ?? "success"}`;
          await run(s);
        }
        checkModel();
        // Every step: the deal it touched and the balances of everyone involved; every 10 steps
        // every balance; every FULL_CHECK_EVERY steps (and at the end) every deal and milestone.
        const touched = s?.deal ?? (s?.expected === null ? (deals.at(-1) ?? null) : null);
        const parties = s ? [address(s.sender)] : [];
        if (touched)
          parties.push(
            touched.brand,
            touched.refundTo,
            touched.evaluator,
            touched.creator ?? zeroAddress,
          );
        await checkChain(touched, parties, {
          all: (step + 1) % FULL_CHECK_EVERY === 0 || step === STEPS - 1,
          everyBalance: step % 10 === 0,
        });
      }
    } catch (err) {
      console.error(
        `[escrow-invariant] failed at step ${step} with seed ${SEED} (ESCROW_INVARIANT_SEED=${SEED}): ${label}`,
        `\nsteps so far (label:outcome → count): ${JSON.stringify(Object.fromEntries([...counts].sort()))}`,
      );
      throw err;
    }

    // The walk must actually have exercised the interesting paths, not only refusals.
    const ok = (name: string) =>
      [...counts].filter(([k]) => k.startsWith(`${name}:ok`)).reduce((s, [, n]) => s + n, 0);
    for (const name of [
      "fund",
      "fundWithAuthorization",
      "assignCreator",
      "release",
      "releaseWithSig",
      "cancel",
      "refundExpired",
      "releaseBatch",
    ])
      expect(ok(name), `${name} succeeded`).toBeGreaterThan(5);
    // Batches released items and skipped others, a milestone repeated in its batch included.
    for (const outcome of ["released", "MilestoneNotLocked", "NotEvaluator", "DealNotFound"])
      expect(counts.get(`releaseBatch item:${outcome}`), `a batch item ${outcome}`).toBeGreaterThan(
        0,
      );
    // Another funder's ref taken again: a deal of its own under its own key (never blocked).
    expect(ok("fund(known ref)"), "fund of a known ref by another funder").toBeGreaterThan(0);
    const refused = new Set([...counts.keys()].filter((k) => !k.endsWith(":ok")));
    for (const reason of [
      "fund(known ref):DealExists",
      "fund:DeadlineNotInFuture",
      "fundWithAuthorization(tampered):FiatTokenV2: invalid signature",
      "fundWithAuthorization(replay):DealExists",
      "assignCreator:NotEvaluator",
      "assignCreator:CreatorAlreadyAssigned",
      "release:NotEvaluator",
      "release:CreatorNotAssigned",
      "release:MilestoneNotLocked",
      "release:PayoutExceedsAmount",
      "release:ReleaseWindowClosed",
      "releaseWithSig:InvalidSignature",
      "releaseWithSig:SignatureExpired",
      "releaseWithSig(replay):MilestoneNotLocked",
      "cancel:NotBrand",
      "cancel:CreatorAlreadyAssigned",
      "refundExpired:RefundNotYetAvailable",
      "refundExpired:MilestoneNotLocked",
    ])
      expect(refused.has(reason), `some step refused with ${reason}`).toBe(true);
  });
});
