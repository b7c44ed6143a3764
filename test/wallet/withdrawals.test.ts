import { eq } from "drizzle-orm";
import { type Address, getAddress, type Hex, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dealsRoute from "@/app/api/deals/route";
import * as walletRoute from "@/app/api/wallet/route";
import * as withdrawalsRoute from "@/app/api/wallet/withdrawals/route";
import { getDb } from "@/db/client";
import { chainTransactions, deals, withdrawals } from "@/db/schema";
import { devEmbeddedWallet, devIdpSubject } from "@/lib/auth/dev-idp";
import { chainConfig } from "@/lib/chain/config";
import { resetEnvCache } from "@/lib/env";
import { walletOverviewResponse, withdrawalResponse } from "@/lib/wallet/schemas";
import { signIn, uniqueEmail } from "../helpers/auth";
import { setChainEnv } from "../helpers/chain-env";
import { type CallResult, call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";
import { newAddress, signerNonceState } from "../helpers/treasury";
import { makeUser } from "../helpers/users";
import { embeddedCreator, ethBalance, mintUsdc, usdcBalance, usdcTransfersTo } from "./helpers";

// POST /api/wallet/withdrawals on the real database and anvil: a creator sends USDC out of the
// embedded wallet the dev identity provider holds for them. Checked on-chain (balances and
// Transfer events), not only in the database. An RPC proxy in front of the node can hold a
// broadcast, so concurrent requests really overlap the send.

let proxy: RpcProxy;
let restore: () => void;
beforeAll(async () => {
  proxy = await startRpcProxy(process.env.RPC_URL as string);
  restore = setChainEnv({ RPC_URL: proxy.url });
});
afterAll(async () => {
  restore?.();
  await proxy?.close();
});

const usdc = (amount: string) => parseUnits(amount, 6);
/** The relayer that submits the sends (and allocates their nonces). */
const sponsor = () => privateKeyToAccount(chainConfig().sponsorKey as Hex).address;
const send = (token: string, body: unknown, key?: string) =>
  call(withdrawalsRoute.POST, {
    token,
    body,
    headers: key ? { "idempotency-key": key } : {},
  });

async function rowsFor(userId: string) {
  const db = await getDb();
  return db
    .select({ w: withdrawals, tx: chainTransactions })
    .from(withdrawals)
    .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTxId))
    .where(eq(withdrawals.userId, userId));
}

describe("sending from the embedded wallet", () => {
  it("moves exactly the amount to the address; the relayer pays the gas", async () => {
    const creator = await embeddedCreator(usdc("50"));
    const to = newAddress();
    expect(await ethBalance(creator.wallet)).toBe(0n); // no gas money at all

    const res = await send(creator.token, { to: to.toLowerCase(), amount: "12.5" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { withdrawal } = withdrawalResponse.parse(res.body);
    expect(withdrawal).toMatchObject({
      from: creator.wallet,
      to,
      amount: "12.500000",
      status: "confirmed",
      token: "USDC",
      chainId: chainConfig().chainId,
    });

    expect(await usdcBalance(to)).toBe(usdc("12.5"));
    expect(await usdcBalance(creator.wallet)).toBe(usdc("37.5"));
    const transfers = await usdcTransfersTo(to);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.transactionHash).toBe(withdrawal.txHash);
    expect(getAddress(transfers[0]?.args.from as Address)).toBe(creator.wallet);
    expect(await ethBalance(creator.wallet)).toBe(0n);

    const rows = await rowsFor(creator.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.w).toMatchObject({ toAddress: to, amountUnits: usdc("12.5") });
    expect(rows[0]?.tx.purpose).toBe(`withdrawal:${withdrawal.id}`);

    // The wallet overview lists it, with the balance read on-chain.
    const overview = await call(walletRoute.GET, { token: creator.token });
    expect(overview.status).toBe(200);
    const parsed = walletOverviewResponse.parse(overview.body);
    expect(parsed.canSend).toBe(true);
    expect(parsed.wallets).toEqual([
      expect.objectContaining({
        address: creator.wallet,
        label: "Signed-in wallet",
        roles: ["embedded"],
        balance: "37.500000",
        canSend: true,
      }),
    ]);
    expect(parsed.withdrawals.map((w) => w.id)).toEqual([withdrawal.id]);
  });

  it("never more than the balance: 409 insufficient_funds, nothing sent", async () => {
    const creator = await embeddedCreator(usdc("5"));
    const to = newAddress();
    const res = await send(creator.token, { to, amount: "5.000001" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("insufficient_funds");
    expect(res.body.error.details).toEqual({ available: "5.000000" });
    expect(await usdcBalance(to)).toBe(0n);
    expect(await rowsFor(creator.user.id)).toHaveLength(0);
  });
});

describe("refused before a nonce is allocated", () => {
  it("a send that does not fit beside one still on its way: 409, and the relayer's nonces untouched", async () => {
    const creator = await embeddedCreator(usdc("50"));
    // The first send is recorded and waits at the node: the balance still shows its 40.
    const broadcast = proxy.hold("eth_sendRawTransaction");
    const first = send(creator.token, { to: newAddress(), amount: "40" });
    await broadcast.arrived;
    const nonces = await signerNonceState(await getDb(), sponsor());

    const to = newAddress();
    const second = await send(creator.token, { to, amount: "20" });
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body.error.code).toBe("insufficient_funds");
    expect(second.body.error.details).toEqual({ available: "10.000000" });
    expect(await signerNonceState(await getDb(), sponsor())).toEqual(nonces);

    broadcast.release();
    expect((await first).body.withdrawal.status).toBe("confirmed");
    expect(await usdcBalance(to)).toBe(0n);
    expect(await usdcBalance(creator.wallet)).toBe(usdc("10"));
  });
});

describe("concurrency", () => {
  const N = 8;

  it("one Idempotency-Key, N requests at once: one transfer; the rest 409 or the replay", async () => {
    const creator = await embeddedCreator(usdc("100"));
    const to = newAddress();
    const key = `cashout-${creator.user.id}`;
    const body = { to, amount: "40" };

    const broadcast = proxy.hold("eth_sendRawTransaction");
    let answered = 0;
    let othersAnswered!: () => void;
    const othersDone = new Promise<void>((r) => {
      othersAnswered = r;
    });
    const requests = Array.from({ length: N }, () =>
      send(creator.token, body, key).then((res) => {
        if (++answered === N - 1) othersAnswered();
        return res;
      }),
    );
    // The request holding the key is at the node with the transfer; the others answer meanwhile.
    await broadcast.arrived;
    await othersDone;
    broadcast.release();
    const results = await Promise.all(requests);

    const ok = results.filter((r) => r.status === 200);
    expect(ok, JSON.stringify(results.map((r) => r.body))).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe("settlement_in_progress");
    }
    const first = ok[0] as CallResult;
    expect(first.body.withdrawal.status).toBe("confirmed");

    const replays = await Promise.all(
      Array.from({ length: N }, () => send(creator.token, body, key)),
    );
    for (const r of replays) {
      expect(r.status).toBe(200);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.body).toEqual(first.body);
    }
    expect(await usdcTransfersTo(to)).toHaveLength(1);
    expect(await usdcBalance(to)).toBe(usdc("40"));
    expect(await usdcBalance(creator.wallet)).toBe(usdc("60"));
    expect(await rowsFor(creator.user.id)).toHaveLength(1);
  });

  it("N different sends at once never take more than the balance", async () => {
    const creator = await embeddedCreator(usdc("100"));
    const targets = Array.from({ length: N }, () => newAddress());
    const nonces = await signerNonceState(await getDb(), sponsor());

    // The first transfer waits at the node until at least the N - 3 sends that cannot fit
    // (100 / 30) have answered: they decide while it is recorded but not mined.
    const broadcast = proxy.hold("eth_sendRawTransaction");
    let answered = 0;
    let enough!: () => void;
    const refusalsDone = new Promise<void>((r) => {
      enough = r;
    });
    const requests = targets.map((to) =>
      send(creator.token, { to, amount: "30" }).then((res) => {
        if (++answered === N - 3) enough();
        return res;
      }),
    );
    await broadcast.arrived;
    await refusalsDone;
    broadcast.release();
    const results = await Promise.all(requests);

    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length).toBeLessThanOrEqual(3);
    for (const r of refused) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.error.code).toBe("insufficient_funds");
    }
    for (const r of ok) expect(r.body.withdrawal.status).toBe("confirmed");

    // On-chain: what was answered as sent arrived, once each; nothing else moved.
    let arrived = 0n;
    for (const to of targets) arrived += await usdcBalance(to);
    expect(arrived).toBe(usdc("30") * BigInt(ok.length));
    expect(await usdcBalance(creator.wallet)).toBe(usdc("100") - arrived);
    const rows = await rowsFor(creator.user.id);
    expect(rows).toHaveLength(ok.length);
    expect(rows.every((r) => r.tx.status === "confirmed")).toBe(true);
    // Each refusal came before a nonce was allocated: one nonce per send, no no-op fills.
    const after = await signerNonceState(await getDb(), sponsor());
    expect(after.next).toBe(nonces.next + ok.length);
    expect(after.fills).toBe(nonces.fills);
  });
});

describe("bad input and other people's money", () => {
  it("answers 400 in the envelope naming the field, before anything is signed", async () => {
    const creator = await embeddedCreator(usdc("10"));
    const to = newAddress();
    // The EIP-55 address with the case of one letter flipped: a typo the checksum catches.
    const i = to.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = to[i] === to[i]?.toUpperCase() ? to[i]?.toLowerCase() : to[i]?.toUpperCase();
    const badChecksum = `${to.slice(0, i)}${flipped}${to.slice(i + 1)}`;
    const config = chainConfig();
    const cases: [unknown, string][] = [
      [{ to: "0x1234", amount: "1" }, "to"],
      [{ to: badChecksum, amount: "1" }, "to"],
      [{ to: "0x0000000000000000000000000000000000000000", amount: "1" }, "to"],
      [{ to: config.usdc, amount: "1" }, "to"],
      [{ to: config.escrow, amount: "1" }, "to"],
      [{ to: creator.wallet, amount: "1" }, "to"],
      [{ to, amount: "0" }, "amount"],
      [{ to, amount: "0.000000" }, "amount"],
      [{ to, amount: "-1" }, "amount"],
      [{ to, amount: "1.0000001" }, "amount"],
      [{ to, amount: "1e3" }, "amount"],
      [{ to, amount: 5 }, "amount"],
      [{ to }, "amount"],
      [{ amount: "1" }, "to"],
    ];
    for (const [body, field] of cases) {
      const res = await send(creator.token, body);
      expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.details[0].path).toEqual([field]);
    }
    expect(await rowsFor(creator.user.id)).toHaveLength(0);
    expect(await usdcBalance(creator.wallet)).toBe(usdc("10"));
  });

  it("sends only from the caller's own embedded wallet", async () => {
    const victim = await embeddedCreator(usdc("20"));
    const thief = await embeddedCreator();
    const to = newAddress();
    // Naming the victim's wallet does nothing: the sender is always the caller's own wallet.
    const res = await send(thief.token, { to, amount: "20", from: victim.wallet });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("insufficient_funds");
    expect(res.body.error.details).toEqual({ available: "0.000000" });
    // An account whose sign-in provider holds no wallet for it cannot send at all.
    const outsider = await makeUser("creator");
    const other = await send(outsider.token, { to, amount: "1" });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("wallet_required");
    // Nobody signed in: 401.
    const anon = await call(withdrawalsRoute.POST, { body: { to, amount: "1" } });
    expect(anon.status).toBe(401);

    expect(await usdcBalance(victim.wallet)).toBe(usdc("20"));
    expect(await usdcBalance(to)).toBe(0n);
    expect(await rowsFor(thief.user.id)).toHaveLength(0);
    expect(await rowsFor(outsider.user.id)).toHaveLength(0);
  });

  it("without an embedded-wallet signer the deployment refuses: 503 not_configured", async () => {
    const creator = await embeddedCreator(usdc("3"));
    process.env.EMBEDDED_WALLET_SIGNER = "none";
    resetEnvCache();
    try {
      const res = await send(creator.token, { to: newAddress(), amount: "1" });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("not_configured");
      const overview = await call(walletRoute.GET, { token: creator.token });
      expect(overview.status).toBe(200);
      expect(overview.body.canSend).toBe(false);
      // still listed: the provider delivered it at sign-in, and it still holds the money
      expect(overview.body.wallets[0]).toMatchObject({
        address: creator.wallet,
        label: "Signed-in wallet",
        balance: "3.000000",
        canSend: false,
      });
    } finally {
      delete process.env.EMBEDDED_WALLET_SIGNER;
      resetEnvCache();
    }
    expect(await usdcBalance(creator.wallet)).toBe(usdc("3"));
  });
});

describe("the wallets that hold the money", () => {
  it("the sign-in provider's wallet shows once it is the user's or holds money", async () => {
    const email = uniqueEmail("no-embedded");
    const session = await signIn({ email }); // no embedded wallet asked for
    const empty = await call(walletRoute.GET, { token: session.token });
    expect(empty.status).toBe(200);
    expect(empty.body.wallets).toEqual([]);
    // Money sent to it anyway (it is the provider's wallet for this account): listed, sendable.
    const embedded = devEmbeddedWallet(devIdpSubject(email));
    await mintUsdc(embedded, usdc("7"));
    const res = await call(walletRoute.GET, { token: session.token });
    expect(res.body.wallets).toEqual([
      expect.objectContaining({
        address: embedded,
        label: "Signed-in wallet",
        balance: "7.000000",
        canSend: true,
      }),
    ]);
  });

  it("a brand sees its funding wallet's balance, read on-chain", async () => {
    const linked = newAddress();
    const brand = await makeUser("organization", { walletAddress: linked });
    const funding = newAddress();
    await mintUsdc(funding, usdc("926"));
    const created = await call(dealsRoute.POST, {
      token: brand.token,
      body: { title: "Two posts", milestones: [{ title: "First post", amount: 926 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const db = await getDb();
    await db.update(deals).set({ brandWallet: funding }).where(eq(deals.id, created.body.deal.id));

    const res = await call(walletRoute.GET, { token: brand.token });
    expect(res.status).toBe(200);
    const overview = walletOverviewResponse.parse(res.body);
    expect(overview.wallets).toEqual([
      expect.objectContaining({ address: linked, label: "Linked wallet", balance: "0.000000" }),
      expect.objectContaining({
        address: funding,
        label: "Funding wallet",
        roles: ["funding"],
        balance: "926.000000",
        canSend: false,
      }),
    ]);
    expect(overview.canSend).toBe(false); // not signed in through a provider holding a wallet
  });
});
