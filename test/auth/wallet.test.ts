import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { GET as nonceGET } from "@/app/api/auth/wallet/nonce/route";
import { POST as walletPOST } from "@/app/api/auth/wallet/route";
import { getDb } from "@/db/client";
import { users, walletNonces } from "@/db/schema";
import { signIn } from "../helpers/auth";
import { call } from "../helpers/http";

// Wallet linking: GET /api/auth/wallet/nonce → sign the SIWE message with a viem local
// account → POST /api/auth/wallet. (Wallets delivered in the identity token: session.test.ts.)

const newAccount = () => privateKeyToAccount(generatePrivateKey());

async function nonceFor(token: string, address?: string) {
  const path = `/api/auth/wallet/nonce${address ? `?address=${address}` : ""}`;
  const res = await call(nonceGET, { token, path });
  expect(res.status).toBe(200);
  return res.body as {
    nonce: string;
    expiresAt: string;
    domain: string;
    uri: string;
    statement: string;
    chainId: number;
    message?: string;
  };
}

describe("wallet linking by signature", () => {
  it("links a wallet: nonce → signed message → checksummed walletAddress", async () => {
    const account = newAccount();
    const { token, user } = await signIn();
    const before = Date.now();
    const issued = await nonceFor(token, account.address.toLowerCase());
    const after = Date.now();
    expect(issued.message).toContain(issued.nonce);
    expect(issued.message).toContain(`Expiration Time: ${issued.expiresAt}`);
    expect(issued.message).toContain(account.address);
    // Ten minutes from when it was issued (bracketed by the call; 1 s for rounding).
    const expiresAt = Date.parse(issued.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 10 * 60_000 + 1_000);

    const message = issued.message ?? "";
    const signature = await account.signMessage({ message });
    const res = await call(walletPOST, {
      token,
      body: { address: account.address.toLowerCase(), message, signature },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ ...user, walletAddress: account.address });
    expect((await call(meGET, { token })).body.user.walletAddress).toBe(account.address);
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.walletSource).toBe("signature");
  });

  it("a client may build the message itself from the nonce response", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const n = await nonceFor(token);
    expect(n.message).toBeUndefined();
    const message = createSiweMessage({
      address: account.address,
      domain: n.domain,
      uri: n.uri,
      chainId: n.chainId,
      nonce: n.nonce,
      statement: n.statement,
      version: "1",
      expirationTime: new Date(n.expiresAt),
    });
    const signature = await account.signMessage({ message });
    const res = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.walletAddress).toBe(account.address);
  });

  it("a wrong signer → 401 invalid_signature, and the nonce stays usable", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const { message = "" } = await nonceFor(token, account.address);
    const forged = await newAccount().signMessage({ message });
    const res = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature: forged },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_signature");

    const signature = await account.signMessage({ message });
    const retry = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature },
    });
    expect(retry.status).toBe(200);
  });

  it("a malformed signature → 401 invalid_signature; a non-hex one → 400", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const { message = "" } = await nonceFor(token, account.address);
    const short = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature: "0x1234" },
    });
    expect(short.status).toBe(401);
    expect(short.body.error.code).toBe("invalid_signature");
    const notHex = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature: "hello" },
    });
    expect(notHex.status).toBe(400);
    expect(notHex.body.error.details[0].path).toEqual(["signature"]);
  });

  it("a reused nonce → 400 invalid_request (nonce_used)", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const { message = "" } = await nonceFor(token, account.address);
    const signature = await account.signMessage({ message });
    const body = { address: account.address, message, signature };
    expect((await call(walletPOST, { token, body })).status).toBe(200);
    const again = await call(walletPOST, { token, body });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: "invalid_request",
      details: { reason: "nonce_used" },
    });
  });

  it("one nonce used concurrently links exactly once", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const { message = "" } = await nonceFor(token, account.address);
    const signature = await account.signMessage({ message });
    const body = { address: account.address, message, signature };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(walletPOST, { token, body })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(4);
  });

  it("an expired nonce → 400 invalid_request (nonce_expired)", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const { nonce, message = "" } = await nonceFor(token, account.address);
    const db = await getDb();
    await db
      .update(walletNonces)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(walletNonces.nonce, nonce));
    const signature = await account.signMessage({ message });
    const res = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ reason: "nonce_expired" });
  });

  it("an expired message → 400 invalid_request (message_expired)", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const n = await nonceFor(token);
    const message = createSiweMessage({
      address: account.address,
      domain: n.domain,
      uri: n.uri,
      chainId: n.chainId,
      nonce: n.nonce,
      version: "1",
      issuedAt: new Date(Date.now() - 120_000),
      expirationTime: new Date(Date.now() - 60_000),
    });
    const signature = await account.signMessage({ message });
    const res = await call(walletPOST, {
      token,
      body: { address: account.address, message, signature },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ reason: "message_expired" });
  });

  it("another user's nonce → 400 invalid_request (nonce_unknown)", async () => {
    const account = newAccount();
    const alice = await signIn();
    const mallory = await signIn();
    const { message = "" } = await nonceFor(alice.token, account.address);
    const signature = await account.signMessage({ message });
    const res = await call(walletPOST, {
      token: mallory.token,
      body: { address: account.address, message, signature },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ reason: "nonce_unknown" });
  });

  it("a message for another site or another address → 400", async () => {
    const account = newAccount();
    const { token } = await signIn();
    const n = await nonceFor(token);
    const base = {
      address: account.address,
      uri: n.uri,
      chainId: n.chainId,
      nonce: n.nonce,
      version: "1" as const,
      expirationTime: new Date(n.expiresAt),
    };
    const foreign = createSiweMessage({ ...base, domain: "evil.example" });
    const r1 = await call(walletPOST, {
      token,
      body: {
        address: account.address,
        message: foreign,
        signature: await account.signMessage({ message: foreign }),
      },
    });
    expect(r1.status).toBe(400);
    expect(r1.body.error.details).toEqual({ reason: "message_domain_mismatch" });

    const other = newAccount();
    const mine = createSiweMessage({ ...base, domain: n.domain });
    const r2 = await call(walletPOST, {
      token,
      body: {
        address: other.address,
        message: mine,
        signature: await other.signMessage({ message: mine }),
      },
    });
    expect(r2.status).toBe(400);
    expect(r2.body.error.details).toEqual({ reason: "message_address_mismatch" });

    const r3 = await call(walletPOST, {
      token,
      body: { address: account.address, message: "please link", signature: "0x00" },
    });
    expect(r3.status).toBe(400);
    expect(r3.body.error.details).toEqual({ reason: "message_malformed" });
  });

  it("a wallet owned by another user → 409 wallet_taken", async () => {
    const account = newAccount();
    const owner = await signIn();
    const { message = "" } = await nonceFor(owner.token, account.address);
    const body = {
      address: account.address,
      message,
      signature: await account.signMessage({ message }),
    };
    expect((await call(walletPOST, { token: owner.token, body })).status).toBe(200);

    const other = await signIn();
    const second = await nonceFor(other.token, account.address.toLowerCase());
    const msg = second.message ?? "";
    const res = await call(walletPOST, {
      token: other.token,
      body: {
        address: account.address,
        message: msg,
        signature: await account.signMessage({ message: msg }),
      },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("wallet_taken");
  });

  it("keeps at most five live nonces per user; older ones are retired", async () => {
    const account = newAccount();
    const { token, user } = await signIn();
    const issued = [];
    for (let i = 0; i < 7; i++) issued.push(await nonceFor(token, account.address));
    const db = await getDb();
    const rows = await db.select().from(walletNonces).where(eq(walletNonces.userId, user.id));
    expect(rows.map((r) => r.nonce).sort()).toEqual(
      issued
        .slice(2)
        .map((n) => n.nonce)
        .sort(),
    );
    const oldest = issued[0]?.message ?? "";
    const res = await call(walletPOST, {
      token,
      body: {
        address: account.address,
        message: oldest,
        signature: await account.signMessage({ message: oldest }),
      },
    });
    expect(res.body.error.details).toEqual({ reason: "nonce_unknown" });
  });

  it("needs a caller", async () => {
    expect((await call(nonceGET, { path: "/api/auth/wallet/nonce" })).status).toBe(401);
    const res = await call(walletPOST, {
      body: { address: newAccount().address, message: "m", signature: "0x00" },
    });
    expect(res.status).toBe(401);
  });
});
