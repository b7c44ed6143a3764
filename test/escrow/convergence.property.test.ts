import fc from "fast-check";
import {
  type Address,
  getAddress,
  type Hex,
  maxUint256,
  type PrivateKeyAccount,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as depositRoute from "@/app/api/deals/[id]/funding/deposit/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import { depositForwarderFactoryAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { listDealDeposits } from "@/db/queries/deposits";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { pollReceipt } from "@/lib/chain/sender";
import { readEscrowDeal } from "@/lib/escrow/chain";
import { decodeDepositArgs } from "@/lib/escrow/deposit";
import { dealKey, GRACE_PERIOD_SECONDS } from "@/lib/escrow/onchain";
import { reconcile } from "@/lib/settle/reconcile";
import { startOwnChain } from "../helpers/chain-env";
import { brandWallet, linkFundingWallet, walletClientFor } from "../helpers/fund-deal";
import { type CallResult, call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import { usdcBalance } from "../settle/fixtures";
import {
  apiDeal,
  cancelFromWallet,
  createDeal,
  type DealRef,
  expectedView,
  fundFromWallet,
  postAuthorization,
  postCancel,
  postFundingReport,
  postRefund,
  signedAuthorization,
  type Terms,
  termsOf,
  viewOf,
} from "./funding-steps";

// The database converges to the escrow, whatever the interleaving (issue 27, deliverable 6).
// fast-check generates sequences of the brand's moves over a few deals — gasless funding and
// approve + fund through the real handlers and from the brand's own wallet, cancel (the API's,
// and the escrow's from the wallet), refund, reconcile, the chain's clock passing the deadline
// plus grace — and the deposit address's (issue 27 points 1–2): asking for it (again, or for a
// new refund address), a plain account's transfers to it (part, the exact rest, too much, or
// to an address the deal no longer uses) and a third party's sweep through the factory — and
// pairs of them run at once (Promise.all). After every step: the API never shows money the
// escrow does not hold, and every answer is one the contract allows. After every reconcile
// (and at the end of each sequence): for each deal, the API's view (status, funded, locked,
// released, refunded) equals the escrow's under the key the app reads (its funder's: the brand
// wallet, or the deposit address that funded it). At each sequence's end, after a reconcile,
// no USDC is unaccounted for: what the test sent for a deal (the brand wallet's net outflow
// plus every transfer to a deposit address) equals what the escrow holds or paid out under any
// of the deal's keys, plus what came back to the refund addresses named, plus what sits at a
// deposit address — and money sits only at the address the API shows as the deal's current
// one, as much as it says was received; a key the app does not read holds nothing the app
// could have returned (a forwarder's).
//
// The seed is printed; rerun a failure with FC_SEED=<seed> (and FC_PATH=<path> from the report);
// FC_SEED=random explores a new sequence set.
// Adding a move: one entry in `steps` (it runs against the World and says which answers are
// allowed); it is drawn alone and in pairs with every other pairable move.
//
// Its own anvil: the clock jumps weeks ahead, which would break time-bound signatures of the
// test files sharing the suite's node.

const DEALS = 3;
/** Sequences per run and commands per sequence (at most): under a minute on two cores. */
const SEQUENCES = 40;
const COMMANDS = 60;
const AMOUNTS: number[][] = [[3, 2], [4], [1, 1, 1]];

type World = {
  deals: DealRef[];
  terms: Terms[];
  /** One authorization per deal, signed once: every gasless step retries the same one. */
  auths: Array<Awaited<ReturnType<typeof signedAuthorization>> | undefined>;
  /** The chain's clock has passed every deal's deadline plus grace. */
  warped: boolean;
  /** What happened, for the failure report. */
  trace: string[];
  /** Moves made (a command running two at once makes two). */
  moves: number;
  /** Full comparisons (reconcile, then every deal's view against the escrow's). */
  comparisons: number;
  /** Per deal: the brand wallet's USDC when the sequence began. */
  walletStart: bigint[];
  /** Per deal: USDC the payer sent to its deposit addresses (any of them). */
  deposited: bigint[];
  /** Per deal: every address the payer sent to. */
  sentTo: Array<Set<Address>>;
  /** Per deal: the fresh refund addresses named (each only this deal's). */
  refundTo: Array<Set<Address>>;
};

type Model = { warped: boolean };

/** A brand's move on deal `deal` (0..DEALS-1); it checks the answers it gets itself. */
type Step = {
  name: string;
  /** Drawn in concurrent pairs (a wallet's own transactions still go one at a time). */
  pairable: boolean;
  run: (w: World, deal: number) => Promise<void>;
};

let anvil: AnvilInstance;
let restore: () => void;
const brands: Array<{ user: TestUser; wallet: PrivateKeyAccount }> = [];
/** A plain account sending USDC to deposit addresses (an exchange's withdrawals). */
let payer: PrivateKeyAccount;
/** Anyone: calls the factory's sweep itself. */
let sweeper: PrivateKeyAccount;
/** One wallet sends one transaction at a time (its nonce): a queue per brand, payer, sweeper. */
const walletQueue = new Map<number | string, Promise<unknown>>();

const USDC = 1_000_000n;

function inWalletQueue<T>(i: number | string, fn: () => Promise<T>): Promise<T> {
  const next = (walletQueue.get(i) ?? Promise.resolve()).then(fn, fn);
  walletQueue.set(
    i,
    next.catch(() => undefined),
  );
  return next;
}

async function chainNow(): Promise<bigint> {
  return (await publicClient().getBlock({ blockTag: "latest" })).timestamp;
}

function allowed(res: CallResult, ok: Array<number | string>, what: string, w: World): void {
  const answer = res.status === 200 ? 200 : `${res.status} ${res.body?.error?.code}`;
  w.trace.push(`  ${what} → ${answer}`);
  expect(ok, `${what} answered ${JSON.stringify(res.body)}\n${w.trace.join("\n")}`).toContain(
    answer,
  );
}

type DepositBlock = {
  address: Address;
  amountUnits: string;
  receivedUnits: string;
  status: string;
  refundAddress: Address;
};

/** The deposit address the API shows for the deal now (GET …/funding), or null. */
async function currentDeposit(d: DealRef): Promise<DepositBlock | null> {
  const res = await call(fundingRoute.GET, { token: d.brand.token, params: { id: d.id } });
  if (res.status !== 200) throw new Error(`funding: ${JSON.stringify(res.body)}`);
  return res.body.funding.deposit;
}

/** Every deposit address the deal was given (the current one last), from the database. */
async function depositRows(d: DealRef) {
  return listDealDeposits(await getDb(), d.id);
}

/** The payer's plain USDC transfer to `to`, counted in the ledger for deal `i`. */
async function payIn(w: World, i: number, to: Address, units: bigint, what: string) {
  const status = await inWalletQueue("payer", async () => {
    const hash = await walletClientFor(payer).writeContract({
      address: chainConfig().usdc as Address,
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [to, units],
      // Not the estimate: estimated while the address held money, a transfer mined after the
      // watcher emptied it pays for a fresh storage slot and would run out of gas.
      gas: 100_000n,
    });
    const receipt = await pollReceipt(hash, 30_000);
    return `${receipt?.status} (${hash}, gas ${receipt?.gasUsed})`;
  });
  w.trace.push(`  ${what}(${i}) ${units} → ${to}: ${status}`);
  expect(status, `${w.trace.join("\n")}\npayer holds ${await usdcBalance(payer.address)}`).toMatch(
    /^success/,
  );
  w.deposited[i] = (w.deposited[i] ?? 0n) + units;
  w.sentTo[i]?.add(getAddress(to));
}

/** A deposit to the deal's current address: `units(total, onAddress)` decides how much. */
function depositStep(name: string, units: (total: bigint, onAddress: bigint) => bigint): Step {
  return {
    name,
    pairable: true,
    async run(w, i) {
      const d = w.deals[i] as DealRef;
      const dep = await currentDeposit(d);
      if (!dep) return;
      const total = BigInt(dep.amountUnits);
      await payIn(w, i, dep.address, units(total, await usdcBalance(dep.address)), name);
    },
  };
}

/** A third party calls factory.sweep for the terms of one of the deal's deposit addresses. */
async function sweepFor(w: World, i: number, replaced: boolean) {
  const rows = await depositRows(w.deals[i] as DealRef);
  const row =
    (replaced ? rows.find((r) => r.supersededAt !== null) : undefined) ??
    rows.find((r) => r.supersededAt === null);
  if (!row) return;
  const terms = decodeDepositArgs(row.args as Hex);
  const status = await inWalletQueue("sweeper", async () => {
    // A fixed gas limit: a sweep the forwarder refuses (underpaid, already funded, past the
    // deadline) is mined and reverts like anyone's would.
    const hash = await walletClientFor(sweeper).writeContract({
      address: chainConfig().depositFactory as Address,
      abi: depositForwarderFactoryAbi,
      functionName: "sweep",
      args: [{ ...terms, amounts: [...terms.amounts] }],
      gas: 2_000_000n,
    });
    return (await pollReceipt(hash, 30_000))?.status;
  });
  w.trace.push(
    `  third-party sweep(${i}) of ${row.supersededAt ? "a replaced" : "the current"} address ${row.address} → ${status}`,
  );
}

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

const steps: Step[] = [
  {
    name: "gasless funding",
    pairable: true,
    async run(w, i) {
      const d = w.deals[i] as DealRef;
      const res = await postAuthorization(d, w.auths[i]);
      // A valid authorization is refused only once the deal's deadline has passed.
      allowed(
        res,
        [200, "409 invalid_state", ...(w.warped ? ["401 invalid_signature"] : [])],
        `gasless(${i})`,
        w,
      );
      if (res.status === 200 && res.body.deal.status === "open")
        expect(res.body.deal.escrow.funded).toBe(true);
    },
  },
  {
    name: "approve + fund from the wallet, reported",
    pairable: true,
    async run(w, i) {
      const d = w.deals[i] as DealRef;
      const mined = await inWalletQueue(i, () => fundFromWallet(d, w.terms[i]));
      w.trace.push(`  wallet fund(${i}) → ${mined}`);
      const res = await postFundingReport(d, { brand: d.wallet.address });
      allowed(res, [200, "409 not_funded"], `report(${i})`, w);
    },
  },
  {
    name: "approve + fund from the wallet, not reported",
    pairable: true,
    async run(w, i) {
      const mined = await inWalletQueue(i, () => fundFromWallet(w.deals[i] as DealRef, w.terms[i]));
      w.trace.push(`  wallet fund, unreported(${i}) → ${mined}`);
    },
  },
  {
    name: "cancel",
    pairable: true,
    async run(w, i) {
      const res = await postCancel(w.deals[i] as DealRef);
      allowed(res, [200, "409 funding_in_progress", "409 invalid_state"], `cancel(${i})`, w);
    },
  },
  {
    name: "cancel from the wallet, then the API",
    pairable: true,
    async run(w, i) {
      const d = w.deals[i] as DealRef;
      const mined = await inWalletQueue(i, () => cancelFromWallet(d));
      w.trace.push(`  wallet cancel(${i}) → ${mined}`);
      const res = await postCancel(d);
      allowed(res, [200, "409 funding_in_progress", "409 invalid_state"], `cancel(${i})`, w);
    },
  },
  {
    name: "refund",
    pairable: true,
    async run(w, i) {
      const res = await postRefund(w.deals[i] as DealRef);
      allowed(res, [200, "409 invalid_state", "409 not_funded"], `refund(${i})`, w);
    },
  },
  {
    name: "reconcile the deal",
    pairable: true,
    async run(w, i) {
      await reconcile(await getDb(), { dealId: (w.deals[i] as DealRef).id });
      w.trace.push(`  reconcile(${i})`);
    },
  },
  {
    name: "ask for the deposit address",
    pairable: true,
    async run(w, i) {
      const d = w.deals[i] as DealRef;
      const res = await call(depositRoute.POST, {
        token: d.brand.token,
        params: { id: d.id },
        body: {},
      });
      allowed(res, [200, "409 invalid_state"], `deposit address(${i})`, w);
    },
  },
  {
    name: "ask for a deposit address with a new refund address",
    pairable: true,
    async run(w, i) {
      const d = w.deals[i] as DealRef;
      const refundAddress = freshAddress();
      w.refundTo[i]?.add(refundAddress);
      const res = await call(depositRoute.POST, {
        token: d.brand.token,
        params: { id: d.id },
        body: { refundAddress },
      });
      allowed(res, [200, "409 invalid_state"], `deposit address for ${refundAddress}(${i})`, w);
      if (res.status === 200) expect(res.body.deposit.refundAddress).toBe(refundAddress);
    },
  },
  // Part of what is missing (at least 1 USDC), the exact rest (the total again once it is
  // there), and the rest plus 1.5 USDC.
  depositStep("deposit part", (total, on) => (total - on > 2n * USDC ? (total - on) / 2n : USDC)),
  depositStep("deposit the rest", (total, on) => (total > on ? total - on : total)),
  depositStep("deposit too much", (total, on) =>
    total > on ? total - on + 1_500_000n : 1_500_000n,
  ),
  {
    name: "deposit to a replaced address",
    pairable: true,
    async run(w, i) {
      const rows = await depositRows(w.deals[i] as DealRef);
      const old = rows.filter((r) => r.supersededAt !== null);
      const row = old.at(-1) ?? rows.find((r) => r.supersededAt === null);
      if (row)
        await payIn(w, i, getAddress(row.address), 2n * USDC, "deposit to a replaced address");
    },
  },
  {
    name: "a third party sweeps the current deposit address",
    pairable: true,
    run: (w, i) => sweepFor(w, i, false),
  },
  {
    name: "a third party sweeps a replaced deposit address",
    pairable: true,
    run: (w, i) => sweepFor(w, i, true),
  },
];

/**
 * The API's deal and the escrow's deal under the key the app reads: its funder's (the brand
 * wallet, or the deposit address whose sweep funded it), else the brand wallet's.
 */
async function appAndEscrow(d: DealRef) {
  const deal = (await apiDeal(d)) as Awaited<ReturnType<typeof apiDeal>> & {
    escrow: { brandWallet: string | null };
  };
  const funder = getAddress(deal.escrow.brandWallet ?? d.wallet.address);
  return { deal, funder, onChain: await readEscrowDeal(dealKey(funder, d.id)) };
}

/** After every step, for the deals it touched: the API shows no money the escrow does not hold. */
async function safe(w: World, touched: Set<number>): Promise<void> {
  for (const i of touched) {
    const d = w.deals[i] as DealRef;
    const { deal, onChain } = await appAndEscrow(d);
    const note = `deal ${i}\n${w.trace.join("\n")}`;
    if (deal.escrow.funded) expect(onChain.exists, note).toBe(true);
    if (onChain.exists) {
      expect(units(deal.escrow.released), note).toBeLessThanOrEqual(onChain.released);
      expect(units(deal.escrow.refunded), note).toBeLessThanOrEqual(onChain.refunded);
    }
  }
}

const units = (decimal: string) => BigInt(decimal.replace(".", ""));

/** Reconcile settles every deal; then the API's view of each equals the escrow's. */
async function converged(w: World, why: string): Promise<void> {
  const db = await getDb();
  for (const d of w.deals) await reconcile(db, { dealId: d.id });
  w.trace.push(`  — ${why}: reconcile, compare`);
  await Promise.all(
    w.deals.map(async (d, i) => {
      const { deal, funder, onChain } = await appAndEscrow(d);
      expect(viewOf(deal), `deal ${i} ${d.id} at ${funder}'s key\n${w.trace.join("\n")}`).toEqual(
        expectedView(onChain, deal.status),
      );
    }),
  );
  w.comparisons++;
}

/**
 * After the final reconcile: no USDC the test sent for a deal is unaccounted for. Sent: the
 * brand wallet's net outflow (its fundings, gasless or not, less what came back to it) plus the
 * payer's transfers to the deal's deposit addresses. Accounted: locked or paid out by the
 * escrow under any of the deal's keys (the wallet's and every deposit address's), the balances
 * of the refund addresses named for it, and the balances of its deposit addresses. Money at a
 * deposit address sits only at the one the API shows, for a deal still waiting, and is what
 * the API says was received; a forwarder's escrow deal the app does not read holds nothing.
 */
async function ledgerBalances(w: World): Promise<void> {
  await Promise.all(
    w.deals.map(async (d, i) => {
      const note = `deal ${i} ${d.id}\n${w.trace.join("\n")}`;
      const rows = await depositRows(d);
      const addresses = rows.map((r) => getAddress(r.address));
      for (const to of w.sentTo[i] ?? []) expect(addresses, note).toContain(to);
      const { deal, funder } = await appAndEscrow(d);
      const shown = await currentDeposit(d);
      let escrowed = 0n;
      for (const key of [d.wallet.address, ...addresses]) {
        const e = await readEscrowDeal(dealKey(key, d.id));
        escrowed += e.locked + e.released;
        if (key !== d.wallet.address && key !== funder)
          expect(e.locked, `${note}\nforwarder ${key} still locked in the escrow`).toBe(0n);
      }
      let atAddresses = 0n;
      for (const row of rows) {
        const held = await usdcBalance(getAddress(row.address));
        atAddresses += held;
        if (held === 0n) continue;
        const where = `${note}\n${held} units at deposit address ${row.address}`;
        expect(deal.status, where).toBe("unfunded");
        expect(shown?.address, where).toBe(getAddress(row.address));
        expect(shown?.receivedUnits, where).toBe(String(held));
      }
      let backAtRefund = 0n;
      for (const a of w.refundTo[i] ?? []) backAtRefund += await usdcBalance(a);
      const walletOut = (w.walletStart[i] as bigint) - (await usdcBalance(d.wallet.address));
      const sent = walletOut + (w.deposited[i] as bigint);
      expect(
        { sent, accounted: escrowed + atAddresses + backAtRefund },
        `${note}\nescrow ${escrowed}, deposit addresses ${atAddresses}, refund addresses ${backAtRefund}, wallet out ${walletOut}, deposited ${w.deposited[i]}`,
      ).toEqual({ sent, accounted: sent });
    }),
  );
}

class StepCommand implements fc.AsyncCommand<Model, World> {
  constructor(
    readonly steps: Array<[Step, number]>,
    readonly settle: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, w: World): Promise<void> {
    w.trace.push(this.toString());
    await Promise.all(this.steps.map(([s, i]) => s.run(w, i)));
    w.moves += this.steps.length;
    await safe(w, new Set(this.steps.map(([, i]) => i)));
    if (this.settle) await converged(w, "settle");
  }
  toString = () =>
    `${this.steps.length > 1 ? "together: " : ""}${this.steps.map(([s, i]) => `${s.name}(${i})`).join(" + ")}${this.settle ? ", then reconcile" : ""}`;
}

class WarpCommand implements fc.AsyncCommand<Model, World> {
  check = (m: Readonly<Model>) => !m.warped;
  async run(m: Model, w: World): Promise<void> {
    w.trace.push(this.toString());
    const now = await chainNow();
    const past = BigInt(Math.max(...w.terms.map((t) => t.deadline))) + GRACE_PERIOD_SECONDS + 60n;
    const rpc = (method: string, params: unknown[]) =>
      publicClient().request({ method: method as never, params: params as never });
    if (past > now) await rpc("evm_increaseTime", [Number(past - now)]);
    await rpc("evm_mine", []);
    m.warped = true;
    w.warped = true;
    await safe(w, new Set(w.deals.keys()));
  }
  toString = () => "the clock passes every deadline plus grace";
}

const deal = fc.integer({ min: 0, max: DEALS - 1 });
const moveArb = fc.tuple(fc.constantFrom(...steps), deal);
const pairableArb = fc.tuple(fc.constantFrom(...steps.filter((s) => s.pairable)), deal);
const commandArbs = [
  // One move; a quarter of them followed by reconcile and the full comparison.
  fc.tuple(moveArb, fc.integer({ min: 0, max: 3 })).map(([m, r]) => new StepCommand([m], r === 0)),
  // Two or three moves at once: the first two on the same deal (where they race), the third
  // on any deal.
  fc
    .tuple(pairableArb, pairableArb, fc.option(pairableArb), fc.integer({ min: 0, max: 3 }))
    .map(
      ([a, b, c, r]) =>
        new StepCommand([a, [b[0], a[1]] as [Step, number], ...(c ? [c] : [])], r === 0),
    ),
  fc.constant(new WarpCommand()),
];

beforeAll(async () => {
  const own = await startOwnChain();
  anvil = own.anvil;
  restore = own.restore;
  // The brands, each with a wallet linked to its account (the watcher's key) that holds
  // test USDC and gas and has approved the escrow once.
  for (let i = 0; i < DEALS; i++) {
    const user = await makeUser("organization");
    const wallet = await linkFundingWallet(user);
    await publicClient().request({
      method: "anvil_setBalance" as never,
      params: [wallet.address, toHex(10n ** 21n)] as never,
    });
    await brandWallet(user, 1_000_000_000_000n);
    await pollReceipt(
      await walletClientFor(wallet).writeContract({
        address: chainConfig().usdc as `0x${string}`,
        abi: mockUsdcAbi,
        functionName: "approve",
        args: [chainConfig().escrow as `0x${string}`, maxUint256],
      }),
      30_000,
    );
    brands.push({ user, wallet });
  }
  payer = await brandWallet(await makeUser("organization"), 10n ** 12n);
  sweeper = privateKeyToAccount(generatePrivateKey());
  await publicClient().request({
    method: "anvil_setBalance" as never,
    params: [sweeper.address, toHex(10n ** 21n)] as never,
  });
}, 180_000);

afterAll(async () => {
  restore?.();
  await anvil?.stop();
});

/** Fresh deals for one sequence, each due ten days after the chain's clock. */
async function newWorld(): Promise<World> {
  const now = await chainNow();
  const deadline = new Date(Number(now + 10n * 24n * 3600n) * 1000).toISOString();
  const deals = await Promise.all(
    brands.map(async (b, i) => {
      const { id } = await createDeal(b.user, AMOUNTS[i] as number[], deadline);
      return { id, brand: b.user, wallet: b.wallet } satisfies DealRef;
    }),
  );
  const terms = await Promise.all(deals.map((d) => termsOf(d)));
  const validBefore = now + 5n * 24n * 3600n;
  const auths = await Promise.all(
    deals.map((d, i) => signedAuthorization(d, terms[i], validBefore)),
  );
  const walletStart = await Promise.all(deals.map((d) => usdcBalance(d.wallet.address)));
  return {
    deals,
    terms,
    auths,
    warped: false,
    trace: [],
    moves: 0,
    comparisons: 0,
    walletStart,
    deposited: deals.map(() => 0n),
    sentTo: deals.map(() => new Set<Address>()),
    refundTo: deals.map(() => new Set<Address>()),
  };
}

/**
 * The seed it runs with unless FC_SEED says otherwise (FC_SEED=random explores). Seeds that
 * found races, now fixed (README, How the money moves): 378598971 path 16 (a cancel read
 * between the escrow deal and its milestones closed the deal `expired`), 20261124 path 22 (a
 * refund racing the brand's on-chain cancel answered 502).
 */
const DEFAULT_SEED = 20261124;

describe("the database converges to the escrow", () => {
  it("over random interleavings of funding (wallet, gasless, deposit address), sweeps, cancel, refund, reconcile and time; no USDC unaccounted for", async () => {
    // A fixed seed by default, so the suite is repeatable; FC_SEED=random explores new ones.
    const asked = process.env.FC_SEED ?? String(DEFAULT_SEED);
    const seed = asked === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(asked);
    const path = process.env.FC_PATH;
    console.log(`convergence property: seed ${seed}${path ? `, path ${path}` : ""}`);
    let moves = 0;
    let comparisons = 0;
    let sequences = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commandArbs, { maxCommands: COMMANDS, size: "max" }),
        async (cmds) => {
          const world = await newWorld();
          await fc.asyncModelRun(() => ({ model: { warped: false }, real: world }), cmds);
          await converged(world, "end of the sequence");
          // One more pass before counting: a reconcile watches deposit addresses before it
          // reads the escrow, so money sent to the address of a deal whose wallet funding the
          // same pass discovers goes back on the next pass.
          await converged(world, "once more");
          await ledgerBalances(world);
          moves += world.moves;
          comparisons += world.comparisons;
          sequences++;
        },
      ),
      { seed, path, numRuns: SEQUENCES, endOnFailure: true },
    );
    console.log(
      `convergence property: ${sequences} sequences, ${moves} moves, ${comparisons} full comparisons in ${Math.round((performance.now() - started) / 1000)} s (seed ${seed})`,
    );
    expect(moves).toBeGreaterThan(0);
  }, 600_000);
});
