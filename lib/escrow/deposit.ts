import {
  type Address,
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  getContractAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  size,
  toHex,
  zeroAddress,
} from "viem";
import { z } from "zod";
import { depositForwarderAbi, depositForwarderFactoryAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import { listDealMilestones } from "@/db/queries/deals";
import {
  claimDepositTx,
  depositSendLeaseHeld,
  getDeposit,
  getDepositById,
  listDepositsToWatch,
  putDepositAddress,
  releaseDepositSendLease,
  restartDepositAddress,
  setDepositState,
  takeDepositSendLease,
  touchDeposit,
} from "@/db/queries/deposits";
import { getDeal } from "@/db/queries/escrow";
import { getUserById } from "@/db/queries/users";
import type { ChainTransaction, Deal, DealDeposit, DepositStatus, Milestone } from "@/db/schema";
import { address, decimal, units } from "@/lib/api/fields";
import { chainConfig, publicClient, requireTreasury, requireUsdc } from "@/lib/chain/config";
import {
  chainUnavailable,
  estimateAhead,
  type GasEstimate,
  getChainTransaction,
  isTransportError,
  recordTransaction,
  resumeTransaction,
  WouldRevert,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import { readEscrowDeal } from "@/lib/escrow/chain";
import { syncFunding, syncRefunds } from "@/lib/escrow/deals";
import { dealKey, dealRef, GRACE_PERIOD_SECONDS, totalOf } from "@/lib/escrow/onchain";
import { recordEvent } from "@/lib/events/events";
import { log } from "@/lib/log";
import { unitsToDecimal } from "@/lib/money";
import type { ReconcileReport } from "@/lib/settle/reconcile";

// A deal's deposit address: a DepositForwarder (contracts/DepositForwarder.sol) at a CREATE2
// address that binds the deal's ref, its exact funding terms and the brand's refund address.
// Anyone sends USDC to it (a wallet, an exchange withdrawal); its only moves are to fund this
// deal in the escrow (under dealKey(forwarder, ref), a key nobody else can create) and to
// return money to the refund address. The service never holds the money: it only computes the
// address (no RPC) and, in reconcile, reads the balance and triggers the sweep or the return
// through the sender (the one path for on-chain writes: recorded, exactly once, resumable).

/** The forwarder's clone arguments (the contract's DepositTerms struct). */
export type DepositTerms = {
  dealRef: Hex;
  evaluator: Address;
  deadline: bigint;
  refundTo: Address;
  amounts: readonly bigint[];
};

const termsAbi = [
  {
    type: "tuple",
    components: [
      { name: "dealRef", type: "bytes32" },
      { name: "evaluator", type: "address" },
      { name: "deadline", type: "uint64" },
      { name: "refundTo", type: "address" },
      { name: "amounts", type: "uint256[]" },
    ],
  },
] as const;

/** abi.encode(DepositTerms): the clone's immutable arguments (and, hashed, its salt). */
export function encodeDepositArgs(t: DepositTerms): Hex {
  return encodeAbiParameters(termsAbi, [
    {
      dealRef: t.dealRef,
      evaluator: getAddress(t.evaluator),
      deadline: t.deadline,
      refundTo: getAddress(t.refundTo),
      amounts: [...t.amounts],
    },
  ]);
}

export function decodeDepositArgs(args: Hex): DepositTerms {
  const [t] = decodeAbiParameters(termsAbi, args);
  return { ...t, amounts: [...t.amounts] };
}

/** The forwarder implementation: the factory's first creation (CREATE at nonce 1). */
export function forwarderImplementation(factory: Address): Address {
  return getContractAddress({ from: factory, nonce: 1n });
}

/**
 * OpenZeppelin Clones' creation code of a clone with immutable arguments (45 bytes of proxy,
 * then the arguments), exactly as Clones._cloneCodeWithImmutableArgs builds it.
 */
function cloneCreationCode(implementation: Address, args: Hex): Hex {
  return concat([
    "0x61",
    toHex(size(args) + 0x2d, { size: 2 }),
    "0x3d81600a3d39f3363d3d373d3d3d363d73",
    implementation,
    "0x5af43d82803e903d91602b57fd5bf3",
    args,
  ]);
}

/** The deposit address for these clone arguments: CREATE2(factory, keccak256(args), clone code). */
export function depositAddressOf(factory: Address, args: Hex): Address {
  return getContractAddress({
    opcode: "CREATE2",
    from: factory,
    salt: keccak256(args),
    bytecode: cloneCreationCode(forwarderImplementation(factory), args),
  });
}

/** EIP-681: a transfer of `units` of the token at `usdc` to `to`, on `chainId`. */
export function paymentUri(p: { usdc: Address; chainId: number; to: Address; units: bigint }) {
  return `ethereum:${getAddress(p.usdc)}@${p.chainId}/transfer?address=${getAddress(p.to)}&uint256=${p.units}`;
}

/** Calldata of the factory calls the service sends (as the evaluator: refund is allowed). */
export const depositCall = {
  sweep: (args: Hex) =>
    encodeFunctionData({
      abi: depositForwarderFactoryAbi,
      functionName: "sweep",
      args: [decodeDepositArgs(args)],
    }),
  refund: (args: Hex) =>
    encodeFunctionData({
      abi: depositForwarderFactoryAbi,
      functionName: "refund",
      args: [decodeDepositArgs(args)],
    }),
  cancelDeal: () => encodeFunctionData({ abi: depositForwarderAbi, functionName: "cancelDeal" }),
};

// ---- the deal's deposit address ---------------------------------------------------------

export const depositSchema = z
  .object({
    address: address.describe(
      "Send exactly `amount` USDC here, from any wallet or exchange: the deal's deposit forwarder (CREATE2), which can only fund this deal in the escrow or return the money to `refundAddress`",
    ),
    amount: decimal.describe("The deal's total, in USDC"),
    amountUnits: units,
    token: z.object({
      symbol: z.literal("USDC"),
      address,
      decimals: z.literal(6),
    }),
    chainId: z.number().int(),
    network: z.string().describe("The chain's name"),
    paymentUri: z
      .string()
      .describe("EIP-681: ethereum:<usdc>@<chainId>/transfer?address=<deposit>&uint256=<units>"),
    received: decimal.describe(
      "What the address received (its balance while waiting; what it swept or returned after)",
    ),
    receivedUnits: units,
    status: z
      .enum(["awaiting", "underpaid", "funded", "returned"])
      .describe(
        "awaiting: nothing yet; underpaid: less than `amount` (send the rest); funded: swept into the escrow; returned: sent back to `refundAddress`",
      ),
    refundAddress: address.describe(
      "Where an over-payment, a deposit to a cancelled or expired deal, and every unreleased amount go back",
    ),
  })
  .meta({ id: "Deposit" });
export const depositResponse = z.object({ deposit: depositSchema });
export type DepositJson = z.infer<typeof depositSchema>;

function requireFactory(): Address {
  const factory = chainConfig().depositFactory;
  if (!factory)
    throw new AppError(
      "not_configured",
      "DEPOSIT_FACTORY_ADDRESS is not configured: deposit addresses are not available on this deployment.",
    );
  return factory;
}

function evaluator(): Address {
  const { treasuryAddress } = chainConfig();
  if (!treasuryAddress) requireTreasury();
  return treasuryAddress as Address;
}

/** The deal's current terms with this refund address, as clone arguments. */
export function depositArgsFor(deal: Deal, ms: Milestone[], refundTo: Address): Hex {
  return encodeDepositArgs({
    dealRef: dealRef(deal.id),
    evaluator: evaluator(),
    deadline: BigInt(Math.floor(deal.deadlineAt.getTime() / 1000)),
    refundTo,
    amounts: ms.map((m) => m.amountUnits),
  });
}

export function depositJson(row: DealDeposit): DepositJson {
  const config = chainConfig();
  const usdc = requireUsdc(config);
  const units = totalOf(decodeDepositArgs(row.args as Hex).amounts);
  const address = getAddress(row.address);
  return {
    address,
    amount: unitsToDecimal(units),
    amountUnits: units.toString(),
    token: { symbol: "USDC", address: usdc, decimals: 6 },
    chainId: row.chainId,
    network: config.known.chain.name,
    paymentUri: paymentUri({ usdc, chainId: row.chainId, to: address, units }),
    received: unitsToDecimal(row.receivedUnits),
    receivedUnits: row.receivedUnits.toString(),
    status: row.status,
    refundAddress: getAddress(row.refundAddress),
  };
}

/**
 * Below this (0.01 USDC) a balance is dust: no `deposit.received` event, and it does not keep
 * the refund address from changing (the replaced address's dust is returned).
 */
export const DUST_UNITS = 10_000n;

/**
 * A refund address money can come back to: not the zero address, nor a contract of this
 * deployment (the escrow, the deposit factory, the token) or the deal's own deposit address,
 * which would keep it for good. 400 naming the field.
 */
function checkRefundAddress(refundTo: Address, existing?: DealDeposit) {
  const config = chainConfig();
  const refused: Array<[Address | null | undefined, string]> = [
    [zeroAddress, "the zero address"],
    [config.escrow, "the escrow contract"],
    [config.depositFactory, "the deposit factory"],
    [config.usdc, "the USDC token contract"],
    [existing ? getAddress(existing.address) : null, "this deal's deposit address"],
  ];
  for (const [address, what] of refused)
    if (address && isAddressEqual(address, refundTo))
      throw new AppError(
        "invalid_request",
        `The request body is invalid: refundAddress cannot be ${what}; money sent back there would be lost.`,
        {
          details: [
            { path: ["refundAddress"], message: `must not be ${what}`, code: "refund_address" },
          ],
        },
      );
}

/**
 * The deal's deposit address, given (or kept) for `refundAddress` — default: the one named
 * before, else the brand's linked or embedded wallet. For an unfunded deal the address follows
 * its current terms; it changes only while nothing was received (afterwards the old address
 * stays, and the watcher returns its money if the terms moved on). Null when the brand has no
 * wallet and names no refund address, or for a deal that never had one and is past unfunded.
 * `databaseOnly` (a page render, which never waits on the chain): where the old address's
 * balance would be read, throws ChainReadNeeded instead.
 */
export async function ensureDeposit(
  db: Db,
  deal: Deal,
  refundAddress?: Address,
  { databaseOnly = false }: { databaseOnly?: boolean } = {},
): Promise<DealDeposit | null> {
  const existing = await getDeposit(db, deal.id);
  if (refundAddress) checkRefundAddress(refundAddress, existing);
  if (deal.status !== "unfunded") {
    if (
      refundAddress &&
      existing &&
      !isAddressEqual(getAddress(existing.refundAddress), refundAddress)
    )
      throw new AppError("invalid_state", "This deal is no longer waiting for its funding.");
    return existing ?? null;
  }
  let refundTo = refundAddress ?? (existing ? getAddress(existing.refundAddress) : null);
  if (!refundTo) {
    const brand = await getUserById(db, deal.brandId);
    refundTo = brand?.walletAddress ? getAddress(brand.walletAddress) : null;
  }
  if (!refundTo) return null;
  const factory = requireFactory();
  const args = depositArgsFor(deal, await listDealMilestones(db, deal.id), refundTo);
  const address = depositAddressOf(factory, args);
  if (existing && isAddressEqual(getAddress(existing.address), address)) return existing;
  if (existing && existing.status === "awaiting" && existing.receivedUnits === 0n) {
    // Nothing recorded yet, but money may be on the address already (the watcher has not
    // looked): read it before handing out another address. Dust alone does not hold the
    // address (the watcher returns it from the replaced one).
    if (databaseOnly) throw new ChainReadNeeded();
    const held = await balanceOf(getAddress(existing.address)).catch((err) => {
      if (!refundAddress) return null; // GET /funding: keep the address until the chain answers
      throw err;
    });
    if (held === null) return existing;
    if (held >= DUST_UNITS) {
      if (!refundAddress) return existing; // the watcher returns it (terms_changed)
      throw new AppError(
        "invalid_state",
        `This deal's deposit address already holds ${unitsToDecimal(held)} USDC, so its refund address can no longer change.`,
        {
          details: {
            address: getAddress(existing.address),
            refundAddress: getAddress(existing.refundAddress),
            received: unitsToDecimal(held),
          },
        },
      );
    }
  }
  const row = await putDepositAddress(db, {
    dealId: deal.id,
    chainId: chainConfig().chainId,
    address,
    refundAddress: refundTo,
    args,
  });
  if (!row) throw new Error(`deposit row of deal ${deal.id} vanished`);
  if (refundAddress && !isAddressEqual(getAddress(row.address), address))
    throw new AppError(
      "invalid_state",
      "This deal's deposit address has already received money, so its refund address can no longer change.",
      {
        details: { address: getAddress(row.address), refundAddress: getAddress(row.refundAddress) },
      },
    );
  return row;
}

/** ensureDeposit's answer depends on a balance on the chain, and the caller said not to read it. */
export class ChainReadNeeded extends Error {
  constructor() {
    super("the deposit address's balance must be read first");
  }
}

// ---- the watcher ------------------------------------------------------------------------

/** Its part of the reconcile answer (lib/settle/reconcile.ts reconcileResponse). */
export type DepositReport = NonNullable<ReconcileReport["deposits"]>;

async function balanceOf(address: Address): Promise<bigint> {
  try {
    return await publicClient().readContract({
      address: requireUsdc(),
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [address],
    });
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    throw err;
  }
}

class Claimed extends Error {}

const isSameCall = (tx: ChainTransaction, to: Address, data: Hex) =>
  isAddressEqual(getAddress(tx.toAddress), to) && tx.data.toLowerCase() === data.toLowerCase();

/** How long a watcher may hold an address's send lease (a recording takes milliseconds). */
const SEND_LEASE_MS = 30_000;
/** How long a watcher waits for another that holds the lease to record its transaction. */
const LEASE_WAIT_MS = 2_000;

/**
 * Sends the deal's sweep or refund exactly once: an earlier one still in flight is resumed;
 * a new one is recorded only by the watcher that holds the address's send lease, taken after
 * the gas estimate and before any nonce is allocated (a watcher refused after allocating
 * would leave its nonce to a no-op), and claims the slot (compare-and-set on the previous
 * transaction's id, in the sender's own transaction, still the arbiter). A watcher without
 * the lease waits for the holder's transaction and resumes it. Returns the transaction as it
 * ended (or still `submitted`), or null when the call would fail (nothing was sent: e.g.
 * nothing to move any more) or another watcher is still recording it.
 */
async function sendOnce(
  db: Db,
  deposit: DealDeposit,
  kind: "sweep" | "refund",
  to: Address,
  data: Hex,
  purpose = `deposit-${kind}:${deposit.dealId}`,
): Promise<ChainTransaction | null> {
  // The gas estimate, made for the slot as it stood then (another send since makes it stale).
  let estimate: { prevId: string | null; gas: GasEstimate } | undefined;
  for (let attempt = 0; attempt < 6; attempt++) {
    const row = await getDepositById(db, deposit.dealId, deposit.id);
    if (!row) return null;
    const prevId = kind === "sweep" ? row.sweepTxId : row.refundTxId;
    const prev = prevId ? await getChainTransaction(db, prevId) : null;
    if (prev && (prev.status === "pending" || prev.status === "submitted")) {
      const done = await resumeTransaction(db, prev);
      // The same call (another watcher's, or ours before a crash): that is this send.
      if (isSameCall(prev, to, data) || done.status === "submitted") return done;
      // Another call held the slot (the brand's cancel while the watcher returns a late
      // top-up, or the other way round): it has ended, so claim the slot for this one. The
      // estimate then says whether there is still anything to do.
      continue;
    }
    if (estimate?.prevId !== prevId) {
      // The network wait first, then the slot is read again: the lease is held milliseconds.
      estimate = { prevId, gas: estimateAhead(requireTreasury(), { to, data }) };
      await estimate.gas.gas;
      continue;
    }
    const lease = await takeDepositSendLease(db, deposit.id, SEND_LEASE_MS);
    if (!lease) {
      // Another watcher is recording this send: resume theirs once it is in the slot.
      if (await leaseStillHeld(db, deposit.id)) return null;
      continue;
    }
    let recorded: ChainTransaction;
    try {
      // Under the lease nobody else records: the slot as read now is what the claim compares.
      const held = await getDepositById(db, deposit.dealId, deposit.id);
      if (!held || (kind === "sweep" ? held.sweepTxId : held.refundTxId) !== prevId) continue;
      recorded = await recordTransaction(
        db,
        requireTreasury(),
        { to, data, purpose, estimate: estimate.gas },
        async (tx, r) => {
          if (!(await claimDepositTx(tx, deposit.id, kind, prevId, r.id))) throw new Claimed();
        },
      );
    } catch (err) {
      if (err instanceof Claimed) continue; // another watcher sent it: resume theirs
      if (err instanceof WouldRevert) return null;
      throw err;
    } finally {
      await releaseDepositSendLease(db, deposit.id, lease).catch(() => {});
    }
    return resumeTransaction(db, recorded);
  }
  return null;
}

/** Waits (at most LEASE_WAIT_MS) for another watcher's send lease to end; true if it has not. */
async function leaseStillHeld(db: Db, depositId: string): Promise<boolean> {
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (let delay = 5; await depositSendLeaseHeld(db, depositId); delay = Math.min(delay * 2, 200)) {
    if (Date.now() >= deadline) return true;
    await new Promise((r) => setTimeout(r, delay));
  }
  return false;
}

/**
 * The forwarder cancels an untaken escrow deal it funded that is not the deal's funding (the
 * escrow returns `locked` to the refund address), sent once through the sender; once mined,
 * the address is `returned` (its received count grown by `addReceived`) with a
 * funding.returned event. True when this call recorded it.
 */
async function cancelStrayEscrowDeal(
  db: Db,
  row: DealDeposit,
  locked: bigint,
  addReceived: bigint,
  reason: string,
): Promise<boolean> {
  const forwarder = getAddress(row.address);
  const now = (await getDepositById(db, row.dealId, row.id)) ?? row;
  const sent = await sendOnce(
    db,
    row,
    "refund",
    forwarder,
    depositCall.cancelDeal(),
    `deposit-cancel:${row.dealId}`,
  );
  if (sent?.status !== "confirmed") return false;
  return moveState(
    db,
    now,
    { receivedUnits: now.receivedUnits + addReceived, status: "returned" },
    {
      type: "funding.returned",
      data: {
        amount: unitsToDecimal(locked),
        to: getAddress(row.refundAddress),
        depositAddress: forwarder,
        reason,
        txHash: sent.hash,
      },
    },
  );
}

/** Records a deposit event and the row's new state together (once: only from what was seen). */
async function moveState(
  db: Db,
  row: DealDeposit,
  to: { receivedUnits: bigint; status: DepositStatus },
  event?: { type: "deposit.received" | "funding.returned"; data: Record<string, unknown> },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const moved = await setDepositState(
      tx,
      row.id,
      { receivedUnits: row.receivedUnits, status: row.status },
      to,
    );
    if (moved && event)
      await recordEvent(tx, { dealId: row.dealId, type: event.type, data: event.data });
    return moved;
  });
}

/**
 * Returns what the forwarder holds (`amount`) to the refund address (factory.refund, as the
 * evaluator), then records `funding.returned` (once) and the `returned` state with `balance`
 * as what the address received.
 */
async function returnDeposit(
  db: Db,
  row: DealDeposit,
  balance: bigint,
  reason: string,
  amount = balance,
): Promise<boolean> {
  const sent = await sendOnce(
    db,
    row,
    "refund",
    requireFactory(),
    depositCall.refund(row.args as Hex),
  );
  if (sent?.status !== "confirmed") {
    if (sent?.status === "failed") log.warn("deposit refund reverted", { dealId: row.dealId });
    return false;
  }
  // From the row as it was before the send: a watcher that resumed another's return finds it
  // moved already and records nothing (one event per return).
  return moveState(
    db,
    row,
    { receivedUnits: balance, status: row.status === "funded" ? "funded" : "returned" },
    {
      type: "funding.returned",
      data: {
        amount: unitsToDecimal(amount),
        to: getAddress(row.refundAddress),
        depositAddress: getAddress(row.address),
        reason,
        txHash: sent.hash,
      },
    },
  );
}

/**
 * One look at a deal's deposit address (the watcher, in reconcile; also on a funding report):
 * - already swept (the escrow holds the deal under the forwarder's key): the deal is opened
 *   from the escrow (syncFunding) and a late top-up is returned;
 * - unfunded deal: a balance that changed is recorded (`deposit.received`, underpaid while
 *   short of the total); at the total or more the forwarder is swept (exactly once), the deal
 *   opens (`funded`), the excess goes back to the refund address in the same transaction;
 * - a deal cancelled, expired or funded another way, or whose terms moved on from the
 *   address's: what the address holds goes back (`funding.returned`).
 */
export async function watchDeposit(
  db: Db,
  deal: Deal,
  row: DealDeposit,
  report: DepositReport,
): Promise<void> {
  const forwarder = getAddress(row.address);
  const terms = decodeDepositArgs(row.args as Hex);
  const total = totalOf(terms.amounts);
  // A sweep left in flight (a crash, a node that went away): finish it first.
  if (row.sweepTxId) {
    const prev = await getChainTransaction(db, row.sweepTxId);
    if (prev && (prev.status === "pending" || prev.status === "submitted")) {
      const done = await resumeTransaction(db, prev);
      if (done.status === "submitted") return; // not mined yet: next run
    }
  }
  const escrowDeal = await readEscrowDeal(dealKey(forwarder, deal.id));
  if (escrowDeal.exists) {
    // Swept: this deal's funding (if the app has not opened it another way).
    if (deal.status === "unfunded" && (await openFromForwarder(db, deal, row))) report.swept++;
    const fresh = (await getDeal(db, deal.id)) ?? deal;
    const openedByForwarder =
      fresh.status !== "unfunded" &&
      fresh.brandWallet !== null &&
      isAddressEqual(getAddress(fresh.brandWallet), forwarder);
    if (
      !openedByForwarder &&
      !escrowDeal.cancelled &&
      !escrowDeal.creator &&
      escrowDeal.locked > 0n
    ) {
      // Swept but not this deal's funding: funded another way first, cancelled or expired in
      // the app meanwhile, or its terms changed since. The forwarder, the escrow deal's funder,
      // cancels its untaken deal on the evaluator's word; the escrow returns it to the refund
      // address.
      const reason =
        fresh.status === "unfunded"
          ? "terms_changed"
          : fresh.status === "cancelled" || fresh.status === "expired"
            ? `deal_${fresh.status}`
            : "funded_twice";
      if (await cancelStrayEscrowDeal(db, row, escrowDeal.locked, 0n, reason)) report.returned++;
    }
    const swept = (await getDepositById(db, row.dealId, row.id)) ?? row;
    if (swept.status !== "funded" && swept.status !== "returned") {
      const received =
        swept.receivedUnits > escrowDeal.funded ? swept.receivedUnits : escrowDeal.funded;
      await moveState(db, swept, { receivedUnits: received, status: "funded" });
    }
    const late = await balanceOf(forwarder);
    if (
      late > 0n &&
      (await returnDeposit(
        db,
        (await getDepositById(db, row.dealId, row.id)) ?? swept,
        late,
        "already_funded",
      ))
    )
      report.returned++;
    // Its escrow deal was returned because the terms moved on: the deal still waits for its
    // funding, at a fresh address for its current terms.
    const still = (await getDeal(db, deal.id)) ?? fresh;
    const settled = await getDepositById(db, row.dealId, row.id);
    if (still.status === "unfunded" && settled?.status === "returned")
      await restartOrPut(db, still, settled);
    return;
  }

  const balance = await balanceOf(forwarder);
  const current = deal.status === "unfunded" ? await currentArgs(db, deal, row) : row.args;
  if (deal.status !== "unfunded" || current !== row.args) {
    // Cancelled, expired or funded another way in the app, or the terms changed: return it.
    if (balance > 0n) {
      const reason =
        deal.status === "unfunded"
          ? "terms_changed"
          : deal.status === "cancelled" || deal.status === "expired"
            ? `deal_${deal.status}`
            : "already_funded";
      if (await returnDeposit(db, row, balance, reason)) report.returned++;
    }
    if (deal.status === "unfunded" && current !== row.args) {
      const after = await getDepositById(db, row.dealId, row.id);
      if (after?.status === "returned" || (after && balance === 0n && after.receivedUnits === 0n))
        await restartOrPut(db, deal, after);
    }
    return;
  }

  // Dust (a stranger's 1 unit): no event, and the address stays replaceable.
  if (balance < DUST_UNITS && row.receivedUnits < DUST_UNITS && balance < total) return;
  if (balance !== row.receivedUnits && balance < total) {
    if (
      await moveState(
        db,
        row,
        { receivedUnits: balance, status: balance === 0n ? "awaiting" : "underpaid" },
        {
          type: "deposit.received",
          data: {
            received: unitsToDecimal(balance),
            amount: unitsToDecimal(total),
            missing: unitsToDecimal(total - balance),
            address: forwarder,
          },
        },
      )
    )
      report.received++;
    return;
  }
  if (balance < total) return;

  // At least the total: record it, then sweep (exactly once) and open the deal.
  if (balance !== row.receivedUnits)
    await moveState(
      db,
      row,
      { receivedUnits: balance, status: row.status },
      {
        type: "deposit.received",
        data: {
          received: unitsToDecimal(balance),
          amount: unitsToDecimal(total),
          missing: "0",
          address: forwarder,
        },
      },
    );
  const sent = await sendOnce(
    db,
    row,
    "sweep",
    requireFactory(),
    depositCall.sweep(row.args as Hex),
  );
  if (sent?.status === "submitted") return; // next run finishes it
  if (sent?.status === "failed") log.warn("deposit sweep reverted", { dealId: deal.id });
  const swept = await readEscrowDeal(dealKey(forwarder, deal.id));
  if (!swept.exists) return;
  const fresh = (await getDeal(db, deal.id)) ?? deal;
  if (fresh.status === "unfunded" && (await openFromForwarder(db, fresh, row, balance - total)))
    report.swept++;
  const after = (await getDepositById(db, row.dealId, row.id)) ?? row;
  if (after.status !== "funded")
    await moveState(db, after, {
      receivedUnits: after.receivedUnits > balance ? after.receivedUnits : balance,
      status: "funded",
    });
}

/** Opens the deal from the escrow's deal under the forwarder's key (checked like any funding). */
async function openFromForwarder(
  db: Db,
  deal: Deal,
  row: DealDeposit,
  excess?: bigint,
): Promise<boolean> {
  const check = await syncFunding(db, deal, {
    funder: getAddress(row.address),
    deposit: { refundAddress: getAddress(row.refundAddress), excess: excess ?? null },
  });
  if (check.status === "mismatch")
    log.warn("deposit funded the escrow with other terms", {
      dealId: deal.id,
      problems: check.problems,
    });
  return check.status === "funded" && check.deal.status !== "unfunded";
}

async function currentArgs(db: Db, deal: Deal, row: DealDeposit): Promise<Hex> {
  return depositArgsFor(deal, await listDealMilestones(db, deal.id), getAddress(row.refundAddress));
}

/** The deal's terms moved on: a fresh address for them (only once the old one is settled). */
async function restartOrPut(db: Db, deal: Deal, row: DealDeposit): Promise<void> {
  const args = await currentArgs(db, deal, row);
  const next = {
    dealId: deal.id,
    chainId: row.chainId,
    address: depositAddressOf(requireFactory(), args),
    refundAddress: getAddress(row.refundAddress),
    args,
  };
  if (row.status === "returned") await restartDepositAddress(db, next);
  else await putDepositAddress(db, next);
}

/**
 * One look at an address the deal no longer uses (replaced by a new refund address or new
 * terms; the watcher keeps looking until deadline + grace): whatever it receives goes back to
 * its own refund address (`funding.returned`, reason `address_replaced`) — what it holds
 * through factory.refund, and an escrow deal someone swept it into through the forwarder's
 * cancelDeal — both as the evaluator, through the sender.
 */
async function watchReplaced(
  db: Db,
  deal: Deal,
  row: DealDeposit,
  report: DepositReport,
): Promise<void> {
  const forwarder = getAddress(row.address);
  const escrowDeal = await readEscrowDeal(dealKey(forwarder, deal.id));
  const openedByForwarder =
    deal.brandWallet !== null && isAddressEqual(getAddress(deal.brandWallet), forwarder);
  if (
    escrowDeal.exists &&
    !openedByForwarder &&
    !escrowDeal.cancelled &&
    !escrowDeal.creator &&
    escrowDeal.locked > 0n
  ) {
    const locked = escrowDeal.locked;
    if (await cancelStrayEscrowDeal(db, row, locked, locked, "address_replaced")) report.returned++;
  }
  const balance = await balanceOf(forwarder);
  if (balance > 0n && !openedByForwarder) {
    const now = (await getDepositById(db, row.dealId, row.id)) ?? row;
    if (await returnDeposit(db, now, now.receivedUnits + balance, "address_replaced", balance))
      report.returned++;
  }
}

/**
 * The brand cancels an untaken deal that was funded from its deposit address: the escrow's
 * funder is the forwarder, which cancels on the evaluator's word (cancelDeal, sent once through
 * the sender); the escrow returns the money to the refund address, and syncRefunds closes the
 * deal. Null when the deal was not funded through its forwarder (the brand's wallet cancels).
 */
export async function cancelThroughForwarder(db: Db, deal: Deal): Promise<Deal | null> {
  const row = await getDeposit(db, deal.id);
  if (!row || !deal.brandWallet) return null;
  const forwarder = getAddress(row.address);
  if (!isAddressEqual(getAddress(deal.brandWallet), forwarder)) return null;
  const sent = await sendOnce(
    db,
    row,
    "refund",
    forwarder,
    depositCall.cancelDeal(),
    `deposit-cancel:${deal.id}`,
  );
  if (sent?.status === "submitted")
    throw chainUnavailable(new Error("the cancel is not mined yet; reconcile finishes it"));
  const after = await syncRefunds(db, deal);
  if (after.status !== "cancelled")
    throw new AppError(
      "chain_unavailable",
      "Cancelling this deal on-chain did not go through. Try again in a moment.",
    );
  return after;
}

/** Every deposit address the watcher reads this run (see listDepositsToWatch). */
export async function watchDeposits(
  db: Db,
  only: { dealId?: string } = {},
): Promise<DepositReport> {
  const report: DepositReport = { received: 0, swept: 0, returned: 0, failed: 0 };
  if (!chainConfig().depositFactory || !chainConfig().escrow) return report;
  const rows = await listDepositsToWatch(db, {
    chainId: chainConfig().chainId,
    dealId: only.dealId,
    limit: 100,
    recentDays: 30,
    graceSeconds: Number(GRACE_PERIOD_SECONDS),
  });
  for (const { deposit, deal } of rows) {
    try {
      await touchDeposit(db, deposit.id);
      if (deposit.supersededAt) await watchReplaced(db, deal, deposit, report);
      else await watchDeposit(db, deal, deposit, report);
    } catch (err) {
      report.failed++;
      log.warn("reconcile: deposit address not watched", { dealId: deal.id, err });
    }
  }
  return report;
}
