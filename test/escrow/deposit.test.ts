import { and, asc, eq } from "drizzle-orm";
import { type Address, getAddress, type Hex, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as depositRoute from "@/app/api/deals/[id]/funding/deposit/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as ledgerRoute from "@/app/api/ledger/route";
import { depositForwarderFactoryAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { getDeposit, listDealDeposits } from "@/db/queries/deposits";
import { chainTransactions, dealEvents } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { pollReceipt } from "@/lib/chain/sender";
import { readEscrowDeal, readRefundRecipient } from "@/lib/escrow/chain";
import { decodeDepositArgs } from "@/lib/escrow/deposit";
import { dealKey } from "@/lib/escrow/onchain";
import { reconcile } from "@/lib/settle/reconcile";
import { anvilRpc, withChainEnv } from "../helpers/chain-env";
import { brandWallet, fundDeal, walletClientFor } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { signerNonceState } from "../helpers/treasury";
import { makeUser, type TestUser } from "../helpers/users";
import { usdcBalance } from "../settle/fixtures";
import { type PausableChain, startPausableChain } from "../settle/unfinished";
import { launchRequirements } from "../verify/fixtures";

// Funding without a wallet (issue 27, points 1 and 2), on anvil through the real handlers and
// reconcile: the brand gets a deposit address (a CREATE2 DepositForwarder binding the deal's
// terms and its refund address), a plain account sends USDC to it (standing in for an exchange
// withdrawal), and the watcher records it, sweeps it into the escrow exactly once and opens the
// deal, or returns it to the refund address.

const USDC = 1_000_000n;

let brand: TestUser;
let payer: PrivateKeyAccount;

beforeAll(async () => {
  brand = await makeUser("organization");
  payer = await brandWallet(await makeUser("organization"), 10_000n * USDC);
});

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const treasury = () => chainConfig().treasuryAddress as Address;

const newDeal = (amounts: number[], who: TestUser = brand) =>
  createDealFor(who, amounts, { title: "Deposit campaign" });

type DepositBlock = {
  address: Address;
  amount: string;
  amountUnits: string;
  token: { symbol: string; address: Address; decimals: number };
  chainId: number;
  network: string;
  paymentUri: string;
  received: string;
  receivedUnits: string;
  status: "awaiting" | "underpaid" | "funded" | "returned";
  refundAddress: Address;
};

async function askDeposit(dealId: string, refundAddress?: Address, who: TestUser = brand) {
  return call(depositRoute.POST, {
    token: who.token,
    params: { id: dealId },
    body: refundAddress ? { refundAddress } : {},
  });
}

async function deposit(dealId: string, refundAddress?: Address): Promise<DepositBlock> {
  const res = await askDeposit(dealId, refundAddress);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.deposit;
}

async function funding(dealId: string) {
  const res = await call(fundingRoute.GET, { token: brand.token, params: { id: dealId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.funding as { status: string; deposit: DepositBlock | null };
}

/** A plain USDC transfer from the payer (an exchange withdrawal, say). */
async function send(to: Address, units: bigint, from: PrivateKeyAccount = payer) {
  const hash = await walletClientFor(from).writeContract({
    address: chainConfig().usdc as Address,
    abi: mockUsdcAbi,
    functionName: "transfer",
    args: [to, units],
  });
  const receipt = await pollReceipt(hash, 30_000);
  expect(receipt?.status).toBe("success");
}

async function eventsOf(dealId: string) {
  const db = await getDb();
  return db
    .select({ type: dealEvents.type, data: dealEvents.data })
    .from(dealEvents)
    .where(eq(dealEvents.dealId, dealId))
    .orderBy(asc(dealEvents.seq));
}

async function sweeps(dealId: string) {
  const db = await getDb();
  return db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, chainConfig().chainId),
        eq(chainTransactions.purpose, `deposit-sweep:${dealId}`),
      ),
    );
}

const watch = async (dealId: string) => (await reconcile(await getDb(), { dealId })).deposits;

describe("deposit addresses: the API", () => {
  it("GET …/funding shows no deposit block to a brand without a wallet; POST …/funding/deposit needs a refund address, then gives the block", async () => {
    const deal = await newDeal([10, 15]);
    expect((await funding(deal.id)).deposit).toBeNull();
    const none = await askDeposit(deal.id);
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe("wallet_required");

    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    const config = chainConfig();
    expect(d).toEqual({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      amount: "25.000000",
      amountUnits: "25000000",
      token: { symbol: "USDC", address: config.usdc, decimals: 6 },
      chainId: config.chainId,
      network: config.known.chain.name,
      paymentUri: `ethereum:${config.usdc}@${config.chainId}/transfer?address=${d.address}&uint256=25000000`,
      received: "0.000000",
      receivedUnits: "0",
      status: "awaiting",
      refundAddress: refund,
    });
    expect(d.address).toBe(getAddress(d.address));
    // Asking again (or GET) gives the same address; the other brand gets 404.
    expect((await deposit(deal.id)).address).toBe(d.address);
    expect((await funding(deal.id)).deposit).toEqual(d);
    const other = await makeUser("organization");
    expect((await askDeposit(deal.id, refund, other)).status).toBe(404);
  });

  it("the default refund address is the brand's own wallet; a new refund address gives a new deposit address until money came in", async () => {
    const own = freshAddress();
    const withWallet = await makeUser("organization", { walletAddress: own });
    const deal = await newDeal([5], withWallet);
    const d = await askDeposit(deal.id, undefined, withWallet);
    expect(d.status).toBe(200);
    expect(d.body.deposit.refundAddress).toBe(own);
    const other = freshAddress();
    const moved = await askDeposit(deal.id, other, withWallet);
    expect(moved.body.deposit.refundAddress).toBe(other);
    expect(moved.body.deposit.address).not.toBe(d.body.deposit.address);

    await send(moved.body.deposit.address, 1n * USDC);
    await reconcile(await getDb(), { dealId: deal.id });
    const locked = await askDeposit(deal.id, own, withWallet);
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe("invalid_state");
    expect((await askDeposit(deal.id, undefined, withWallet)).body.deposit.address).toBe(
      moved.body.deposit.address,
    );
  });
});

describe("the watcher (reconcile)", () => {
  it("exact payment: awaiting → funded; the escrow holds the deal under the forwarder's key with the refund address as its recipient", async () => {
    const deal = await newDeal([10, 20]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    expect((await watch(deal.id))?.swept).toBe(0); // nothing yet: still awaiting
    expect((await funding(deal.id)).deposit?.status).toBe("awaiting");

    await send(d.address, 30n * USDC);
    expect((await watch(deal.id))?.swept).toBe(1);
    const f = await funding(deal.id);
    expect(f.status).toBe("open");
    expect(f.deposit).toMatchObject({ status: "funded", received: "30.000000" });
    const key = dealKey(d.address, deal.id);
    const onChain = await readEscrowDeal(key);
    expect(onChain).toMatchObject({ exists: true, brand: d.address, funded: 30n * USDC });
    expect(await readRefundRecipient(key)).toBe(refund);
    expect(await usdcBalance(d.address)).toBe(0n);
    // The deal says where the escrow sends what it does not release: the refund address, not
    // the forwarder that funded it (what the settle and refund confirmations show).
    const shown = await call(dealRoute.GET, { token: brand.token, params: { id: deal.id } });
    expect(shown.body.deal.escrow).toMatchObject({ brandWallet: d.address, refundTo: refund });
    const events = await eventsOf(deal.id);
    expect(events.map((e) => e.type)).toEqual(["created", "deposit.received", "funded"]);
    expect(events[2]?.data).toMatchObject({
      amount: "30.000000",
      brandWallet: d.address,
      via: "deposit",
      refundAddress: refund,
      excess: "0.000000",
    });
    // Another run changes nothing.
    await watch(deal.id);
    expect((await eventsOf(deal.id)).length).toBe(3);
    expect(await sweeps(deal.id)).toHaveLength(1);
  });

  it("under-payment then a top-up: underpaid (one event per change), then funded", async () => {
    const deal = await newDeal([40, 60]);
    const d = await deposit(deal.id, freshAddress());
    await send(d.address, 25n * USDC);
    await watch(deal.id);
    await watch(deal.id); // unchanged: no second event
    let f = await funding(deal.id);
    expect(f.status).toBe("unfunded");
    expect(f.deposit).toMatchObject({ status: "underpaid", received: "25.000000" });
    expect(await sweeps(deal.id)).toHaveLength(0);
    await send(d.address, 30n * USDC);
    await watch(deal.id);
    f = await funding(deal.id);
    expect(f.deposit).toMatchObject({ status: "underpaid", received: "55.000000" });

    await send(d.address, 45n * USDC);
    await watch(deal.id);
    f = await funding(deal.id);
    expect(f.status).toBe("open");
    expect(f.deposit).toMatchObject({ status: "funded", received: "100.000000" });
    const events = await eventsOf(deal.id);
    expect(events.map((e) => e.type)).toEqual([
      "created",
      "deposit.received",
      "deposit.received",
      "deposit.received",
      "funded",
    ]);
    expect(events.slice(1, 4).map((e) => [e.data.received, e.data.missing])).toEqual([
      ["25.000000", "75.000000"],
      ["55.000000", "45.000000"],
      ["100.000000", "0"],
    ]);
  });

  it("over-payment: exactly the total is locked, the excess goes back to the refund address (balances on-chain)", async () => {
    const deal = await newDeal([12]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    const escrow = chainConfig().escrow as Address;
    const escrowBefore = await usdcBalance(escrow);
    await send(d.address, 12n * USDC + 3_500_000n);
    await watch(deal.id);
    expect((await funding(deal.id)).status).toBe("open");
    expect(await usdcBalance(refund)).toBe(3_500_000n);
    expect(await usdcBalance(d.address)).toBe(0n);
    expect(await usdcBalance(escrow)).toBe(escrowBefore + 12n * USDC);
    const funded = (await eventsOf(deal.id)).find((e) => e.type === "funded");
    expect(funded?.data).toMatchObject({ excess: "3.500000", refundAddress: refund });

    // A late top-up to a funded deal goes back too.
    await send(d.address, 2n * USDC);
    await watch(deal.id);
    expect(await usdcBalance(refund)).toBe(5_500_000n);
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason, e.data.to])).toEqual([
      ["2.000000", "already_funded", refund],
    ]);
  });

  it("a deposit to a cancelled deal is returned to the refund address (funding.returned)", async () => {
    const deal = await newDeal([8]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    const cancelled = await call(cancelRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.deal.status).toBe("cancelled");
    await send(d.address, 8n * USDC);
    expect((await watch(deal.id))?.returned).toBe(1);
    expect(await usdcBalance(refund)).toBe(8n * USDC);
    expect(await usdcBalance(d.address)).toBe(0n);
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).exists).toBe(false);
    const f = await funding(deal.id);
    expect(f.status).toBe("cancelled");
    expect(f.deposit).toMatchObject({ status: "returned", received: "8.000000" });
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["8.000000", "deal_cancelled"],
    ]);
    // The brand's ledger shows the return (the deal was never funded: no funding entry).
    const ledger = await call(ledgerRoute.GET, {
      token: brand.token,
      path: `/api/ledger?dealId=${deal.id}`,
    });
    expect(ledger.status, JSON.stringify(ledger.body)).toBe(200);
    expect(ledger.body.entries).toEqual([
      expect.objectContaining({
        kind: "refund",
        reason: "returned",
        amount: "8.000000",
        from: getAddress(d.address),
        to: getAddress(refund),
        txHash: returned[0]?.data.txHash,
      }),
    ]);
    // Nothing more to return: another run sends nothing.
    await watch(deal.id);
    expect((await eventsOf(deal.id)).filter((e) => e.type === "funding.returned")).toHaveLength(1);
  });

  it("concurrent reconciles sweep once and open the deal once", async () => {
    const deal = await newDeal([7, 3]);
    const d = await deposit(deal.id, freshAddress());
    await send(d.address, 10n * USDC);
    const db = await getDb();
    const nonces = await signerNonceState(db, treasury());
    await Promise.all(Array.from({ length: 4 }, () => reconcile(db, { dealId: deal.id })));
    expect((await funding(deal.id)).status).toBe("open");
    const sent = await sweeps(deal.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.status).toBe("confirmed");
    const types = (await eventsOf(deal.id)).map((e) => e.type);
    expect(types.filter((t) => t === "funded")).toHaveLength(1);
    expect(types.filter((t) => t === "deposit.received")).toHaveLength(1);
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).funded).toBe(10n * USDC);
    // The watchers that did not send it allocated no nonce: one used, none filled by a no-op.
    const after = await signerNonceState(db, treasury());
    expect(after.next).toBe(nonces.next + 1);
    expect(after.fills).toBe(nonces.fills);
  });

  it("a watcher whose estimate is slow while another sweeps allocates no nonce; the address is swept once", async () => {
    const deal = await newDeal([4]);
    const d = await deposit(deal.id, freshAddress());
    await send(d.address, 4n * USDC);
    const db = await getDb();
    const node = chainConfig().rpcUrl;
    const proxy = await startRpcProxy(node);
    try {
      await withChainEnv({ RPC_URL: proxy.url }, async () => {
        // The first watcher's gas estimate for the sweep is answered by the node at once
        // (the address is not swept yet), but the answer reaches the watcher late...
        const held = proxy.hold("eth_estimateGas");
        const slow = reconcile(db, { dealId: deal.id });
        const answer = await anvilRpc(node, "eth_estimateGas", await held.arrived);
        expect(answer.result).toBeDefined();
        // ...after a second watcher swept the address in full.
        await reconcile(db, { dealId: deal.id });
        expect(await sweeps(deal.id)).toHaveLength(1);
        const nonces = await signerNonceState(db, treasury());
        held.release({ result: answer.result });
        await slow;
        expect(await signerNonceState(db, treasury())).toEqual(nonces);
      });
    } finally {
      await proxy.close();
    }
    expect((await funding(deal.id)).status).toBe("open");
    const sent = await sweeps(deal.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.status).toBe("confirmed");
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).funded).toBe(4n * USDC);
  });

  it("the brand cancels a deal funded from its deposit address: the forwarder cancels it in the escrow, the money goes to the refund address", async () => {
    const deal = await newDeal([6, 4]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    await send(d.address, 10n * USDC);
    await watch(deal.id);
    expect((await funding(deal.id)).status).toBe("open");
    const res = await call(cancelRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body: {},
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.deal.status).toBe("cancelled");
    expect(await usdcBalance(refund)).toBe(10n * USDC);
    const onChain = await readEscrowDeal(dealKey(d.address, deal.id));
    expect(onChain).toMatchObject({ cancelled: true, locked: 0n, refunded: 10n * USDC });
    const events = await eventsOf(deal.id);
    expect(events.filter((e) => e.type === "refunded").map((e) => e.data.to)).toEqual([
      refund,
      refund,
    ]);
    expect(events.at(-1)?.type).toBe("cancelled");
  });

  it("funded twice (the brand's wallet first, then someone sweeps the deposit address): the second funding goes back to the refund address", async () => {
    const withWallet = await makeUser("organization");
    const deal = await newDeal([9], withWallet);
    const refund = freshAddress();
    const d = (await askDeposit(deal.id, refund, withWallet)).body.deposit as DepositBlock;
    await fundDeal(withWallet, deal.id); // the brand's own wallet funds and reports it
    // Anyone may sweep: a payer fills the deposit address and sweeps it through the factory.
    await send(d.address, 9n * USDC);
    const terms = decodeDepositArgs((await getDeposit(await getDb(), deal.id))?.args as Hex);
    const sweep = await walletClientFor(payer).writeContract({
      address: chainConfig().depositFactory as Address,
      abi: depositForwarderFactoryAbi,
      functionName: "sweep",
      args: [{ ...terms, amounts: [...terms.amounts] }],
    });
    expect((await pollReceipt(sweep, 30_000))?.status).toBe("success");
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).locked).toBe(9n * USDC);

    await reconcile(await getDb(), { dealId: deal.id });
    expect(await usdcBalance(refund)).toBe(9n * USDC);
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).cancelled).toBe(true);
    const f = await call(fundingRoute.GET, { token: withWallet.token, params: { id: deal.id } });
    expect(f.body.funding.status).toBe("open"); // still funded by the brand's wallet
    expect(f.body.funding.deposit.status).toBe("returned");
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["9.000000", "funded_twice"],
    ]);
  });

  it("swept by someone after the deal was cancelled in the app: the forwarder cancels its escrow deal, the money goes to the refund address", async () => {
    const deal = await newDeal([5]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    const cancelled = await call(cancelRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body: {},
    });
    expect(cancelled.body.deal.status).toBe("cancelled");
    await send(d.address, 5n * USDC);
    const terms = decodeDepositArgs((await getDeposit(await getDb(), deal.id))?.args as Hex);
    const sweep = await walletClientFor(payer).writeContract({
      address: chainConfig().depositFactory as Address,
      abi: depositForwarderFactoryAbi,
      functionName: "sweep",
      args: [{ ...terms, amounts: [...terms.amounts] }],
    });
    expect((await pollReceipt(sweep, 30_000))?.status).toBe("success");
    await watch(deal.id);
    expect(await usdcBalance(refund)).toBe(5n * USDC);
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).locked).toBe(0n);
    expect((await funding(deal.id)).status).toBe("cancelled");
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["5.000000", "deal_cancelled"],
    ]);
  });

  it("terms edited after a partial deposit: the old address's money goes back, the deal gets a new address for its new terms", async () => {
    const deal = await newDeal([10]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    await send(d.address, 4n * USDC);
    await watch(deal.id);
    expect((await funding(deal.id)).deposit).toMatchObject({ status: "underpaid" });
    const edited = await call(dealRoute.PATCH, {
      token: brand.token,
      params: { id: deal.id },
      body: {
        milestones: [{ title: "Post 1", amount: 12, requirements: launchRequirements }],
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await watch(deal.id);
    expect(await usdcBalance(refund)).toBe(4n * USDC);
    const after = (await funding(deal.id)).deposit;
    expect(after).toMatchObject({
      status: "awaiting",
      received: "0.000000",
      amount: "12.000000",
      refundAddress: refund,
    });
    expect(after?.address).not.toBe(d.address);
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["4.000000", "terms_changed"],
    ]);
    // The new address works as any other.
    await send(after?.address as Address, 12n * USDC);
    await watch(deal.id);
    expect((await funding(deal.id)).status).toBe("open");
  });

  it("a funding report (POST …/funding) sweeps a full deposit address at once", async () => {
    const deal = await newDeal([4]);
    const d = await deposit(deal.id, freshAddress());
    await send(d.address, 4n * USDC);
    const res = await call(fundingRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body: {},
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.deal.status).toBe("open");
  });
});

describe("a sweep the chain never answered", () => {
  let chain: PausableChain;
  beforeAll(async () => {
    chain = await startPausableChain();
  }, 60_000);
  afterAll(async () => {
    await chain?.stop();
  });

  it("is sent once: the node loses it between send and receipt, and the next reconcile re-broadcasts the same bytes", async () => {
    const localBrand = await makeUser("organization");
    const localPayer = await brandWallet(await makeUser("organization"), 100n * USDC);
    const deal = await newDeal([20], localBrand);
    const refund = freshAddress();
    const res = await askDeposit(deal.id, refund, localBrand);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d: DepositBlock = res.body.deposit;
    await send(d.address, 21n * USDC, localPayer);

    await chain.rpc("evm_setAutomine", [false]);
    let first: Awaited<ReturnType<typeof sweeps>>;
    try {
      await watch(deal.id); // records, broadcasts, gives up after the 1 s receipt timeout
    } finally {
      first = await sweeps(deal.id);
      for (const row of first) await chain.rpc("anvil_dropTransaction", [row.hash]);
      await chain.rpc("evm_setAutomine", [true]);
    }
    expect(first).toHaveLength(1);
    expect(first[0]?.status).toBe("submitted");
    const f0 = await call(fundingRoute.GET, {
      token: localBrand.token,
      params: { id: deal.id },
    });
    expect(f0.body.funding.status).toBe("unfunded");

    await watch(deal.id);
    const after = await sweeps(deal.id);
    expect(after).toHaveLength(1);
    expect(after[0]?.hash).toBe(first[0]?.hash as Hex);
    expect(after[0]?.status).toBe("confirmed");
    const f1 = await call(fundingRoute.GET, {
      token: localBrand.token,
      params: { id: deal.id },
    });
    expect(f1.body.funding.status).toBe("open");
    expect(f1.body.funding.deposit.status).toBe("funded");
    expect(await usdcBalance(refund)).toBe(1n * USDC);
    expect((await readEscrowDeal(dealKey(d.address, deal.id))).funded).toBe(20n * USDC);
  });

  it("a replaced address's return is sent once: the node loses it between send and receipt, and the next reconcile re-broadcasts the same bytes", async () => {
    const localBrand = await makeUser("organization");
    const localPayer = await brandWallet(await makeUser("organization"), 100n * USDC);
    const deal = await newDeal([20], localBrand);
    const refund1 = freshAddress();
    const d1: DepositBlock = (await askDeposit(deal.id, refund1, localBrand)).body.deposit;
    const moved = await askDeposit(deal.id, freshAddress(), localBrand);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await send(d1.address, 4n * USDC, localPayer);
    const returns = async () =>
      (await getDb())
        .select()
        .from(chainTransactions)
        .where(eq(chainTransactions.purpose, `deposit-refund:${deal.id}`));

    await chain.rpc("evm_setAutomine", [false]);
    let first: Awaited<ReturnType<typeof returns>>;
    try {
      await watch(deal.id); // records, broadcasts, gives up after the receipt timeout
    } finally {
      first = await returns();
      for (const row of first) await chain.rpc("anvil_dropTransaction", [row.hash]);
      await chain.rpc("evm_setAutomine", [true]);
    }
    expect(first).toHaveLength(1);
    expect(first[0]?.status).toBe("submitted");
    expect(await usdcBalance(refund1)).toBe(0n);

    await watch(deal.id);
    const after = await returns();
    expect(after).toHaveLength(1);
    expect(after[0]?.hash).toBe(first[0]?.hash as Hex);
    expect(after[0]?.status).toBe("confirmed");
    expect(await usdcBalance(refund1)).toBe(4n * USDC);
    await watch(deal.id);
    expect(await returns()).toHaveLength(1);
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["4.000000", "address_replaced"],
    ]);
  });
});

// Review of the deposit feature (issue 27): M1 an address replaced with money on it, M2 a
// stale address swept by a third party, M3 a refund address nothing could come back from,
// L1 dust.
describe("replaced deposit addresses (M1)", () => {
  it("money on the address the watcher has not seen yet: a new refund address is refused (409), the address and its money stay", async () => {
    const deal = await newDeal([10]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    await send(d.address, 4n * USDC); // arrived; reconcile has not run
    const moved = await askDeposit(deal.id, freshAddress());
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.error.code).toBe("invalid_state");
    expect(moved.body.error.message).toMatch(/already holds 4\.000000 USDC/);
    expect((await funding(deal.id)).deposit?.address).toBe(d.address);
    await watch(deal.id);
    expect((await funding(deal.id)).deposit).toMatchObject({
      address: d.address,
      status: "underpaid",
      received: "4.000000",
      refundAddress: refund,
    });
  });

  it("money sent to an address after it was replaced goes back to its own refund address (address_replaced), once, however many watchers look", async () => {
    const deal = await newDeal([10]);
    const refund1 = freshAddress();
    const refund2 = freshAddress();
    const d1 = await deposit(deal.id, refund1);
    const d2 = await deposit(deal.id, refund2);
    expect(d2.address).not.toBe(d1.address);
    await send(d1.address, 4n * USDC); // the payer still had the first address
    await Promise.all([watch(deal.id), watch(deal.id), watch(deal.id)]);
    expect(await usdcBalance(d1.address)).toBe(0n);
    expect(await usdcBalance(refund1)).toBe(4n * USDC);
    expect(await usdcBalance(refund2)).toBe(0n);
    // A later transfer to the old address goes back too.
    await send(d1.address, 1n * USDC);
    await watch(deal.id);
    expect(await usdcBalance(refund1)).toBe(5n * USDC);
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(
      returned.map((e) => [e.data.amount, e.data.reason, e.data.to, e.data.depositAddress]),
    ).toEqual([
      ["4.000000", "address_replaced", refund1, d1.address],
      ["1.000000", "address_replaced", refund1, d1.address],
    ]);
    const rows = await listDealDeposits(await getDb(), deal.id);
    expect(rows.map((r) => [r.address, r.supersededAt !== null])).toEqual([
      [d1.address, true],
      [d2.address, false],
    ]);
    // The deal still waits at its current address, which works as any other.
    expect((await funding(deal.id)).deposit).toMatchObject({
      address: d2.address,
      status: "awaiting",
    });
    await send(d2.address, 10n * USDC);
    await watch(deal.id);
    expect((await funding(deal.id)).status).toBe("open");
  });

  it("GET …/funding after a terms edit keeps an address that holds unseen money; the watcher returns it (terms_changed) and then gives the new address", async () => {
    const deal = await newDeal([10]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    await send(d.address, 4n * USDC);
    const edited = await call(dealRoute.PATCH, {
      token: brand.token,
      params: { id: deal.id },
      body: { milestones: [{ title: "Post 1", amount: 12, requirements: launchRequirements }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await funding(deal.id)).deposit?.address).toBe(d.address);
    await watch(deal.id);
    expect(await usdcBalance(refund)).toBe(4n * USDC);
    const after = (await funding(deal.id)).deposit;
    expect(after).toMatchObject({ status: "awaiting", amount: "12.000000", refundAddress: refund });
    expect(after?.address).not.toBe(d.address);
  });

  it("a replaced address swept into the escrow by someone: the forwarder cancels that escrow deal back to its refund address (address_replaced)", async () => {
    const deal = await newDeal([5]);
    const refund1 = freshAddress();
    const d1 = await deposit(deal.id, refund1);
    const old = decodeDepositArgs((await getDeposit(await getDb(), deal.id))?.args as Hex);
    const d2 = await deposit(deal.id, freshAddress());
    await send(d1.address, 5n * USDC);
    const sweep = await walletClientFor(payer).writeContract({
      address: chainConfig().depositFactory as Address,
      abi: depositForwarderFactoryAbi,
      functionName: "sweep",
      args: [{ ...old, amounts: [...old.amounts] }],
    });
    expect((await pollReceipt(sweep, 30_000))?.status).toBe("success");
    await watch(deal.id);
    expect(await usdcBalance(refund1)).toBe(5n * USDC);
    expect((await readEscrowDeal(dealKey(d1.address, deal.id))).locked).toBe(0n);
    const f = await funding(deal.id);
    expect(f.status).toBe("unfunded");
    expect(f.deposit?.address).toBe(d2.address);
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["5.000000", "address_replaced"],
    ]);
  });
});

describe("an outdated address swept by a third party (M2)", () => {
  it("after the watcher cancels its escrow deal (terms_changed), the deal gets a fresh address for its current terms, which funds it", async () => {
    const deal = await newDeal([10]);
    const refund = freshAddress();
    const d = await deposit(deal.id, refund);
    await send(d.address, 10n * USDC); // full payment, not yet seen
    const edited = await call(dealRoute.PATCH, {
      token: brand.token,
      params: { id: deal.id },
      body: { milestones: [{ title: "Post 1", amount: 12, requirements: launchRequirements }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const stale = decodeDepositArgs((await getDeposit(await getDb(), deal.id))?.args as Hex);
    const sweep = await walletClientFor(payer).writeContract({
      address: chainConfig().depositFactory as Address,
      abi: depositForwarderFactoryAbi,
      functionName: "sweep",
      args: [{ ...stale, amounts: [...stale.amounts] }],
    });
    expect((await pollReceipt(sweep, 30_000))?.status).toBe("success");
    await watch(deal.id);
    expect(await usdcBalance(refund)).toBe(10n * USDC);
    const f = await funding(deal.id);
    expect(f.status).toBe("unfunded");
    expect(f.deposit).toMatchObject({
      status: "awaiting",
      received: "0.000000",
      amount: "12.000000",
      refundAddress: refund,
    });
    expect(f.deposit?.address).not.toBe(d.address);
    expect((await deposit(deal.id)).address).toBe(f.deposit?.address);
    const returned = (await eventsOf(deal.id)).filter((e) => e.type === "funding.returned");
    expect(returned.map((e) => [e.data.amount, e.data.reason])).toEqual([
      ["10.000000", "terms_changed"],
    ]);
    await send(f.deposit?.address as Address, 12n * USDC);
    await watch(deal.id);
    expect((await funding(deal.id)).status).toBe("open");
  });
});

describe("refund addresses nothing could come back from (M3)", () => {
  it("400 naming refundAddress: the zero address, a mixed-case address with a wrong checksum, the escrow, the factory, the token; lower case is accepted", async () => {
    const deal = await newDeal([5]);
    const good = freshAddress();
    const badChecksum = (good.slice(0, 2) +
      [...good.slice(2)]
        .map((ch) =>
          /[a-f]/.test(ch) ? ch.toUpperCase() : /[A-F]/.test(ch) ? ch.toLowerCase() : ch,
        )
        .join("")) as Address;
    const config = chainConfig();
    for (const bad of [
      "0x0000000000000000000000000000000000000000",
      badChecksum,
      config.escrow,
      config.depositFactory,
      config.usdc,
      config.usdc?.toLowerCase(),
    ]) {
      const res = await askDeposit(deal.id, bad as Address);
      expect(res.status, `${bad}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.details.map((x: { path: string[] }) => x.path)).toEqual([
        ["refundAddress"],
      ]);
    }
    expect(await getDeposit(await getDb(), deal.id)).toBeUndefined();
    const ok = await deposit(deal.id, good.toLowerCase() as Address);
    expect(ok.refundAddress).toBe(getAddress(good));
  });
});

describe("dust (L1)", () => {
  it("one base unit from a stranger: no deposit.received, and a refund-address change proceeds, returning the dust from the replaced address", async () => {
    const deal = await newDeal([5]);
    const refund1 = freshAddress();
    const d1 = await deposit(deal.id, refund1);
    await send(d1.address, 1n);
    await watch(deal.id);
    expect((await eventsOf(deal.id)).filter((e) => e.type === "deposit.received")).toEqual([]);
    expect((await funding(deal.id)).deposit).toMatchObject({
      status: "awaiting",
      received: "0.000000",
    });
    const refund2 = freshAddress();
    const d2 = await deposit(deal.id, refund2);
    expect(d2.address).not.toBe(d1.address);
    await watch(deal.id);
    expect(await usdcBalance(refund1)).toBe(1n);
    expect(await usdcBalance(d1.address)).toBe(0n);
    // A real deposit on the new address is recorded as usual.
    await send(d2.address, 2n * USDC);
    await watch(deal.id);
    expect((await funding(deal.id)).deposit).toMatchObject({
      status: "underpaid",
      received: "2.000000",
    });
  });
});
