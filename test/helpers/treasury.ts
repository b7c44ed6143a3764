import { and, eq } from "drizzle-orm";
import { type Address, encodeFunctionData, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { type Db, getDb } from "@/db/client";
import { chainTransactions, signerNonces } from "@/db/schema";
import { chainConfig, publicClient, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { NONCE_FILL_PURPOSE } from "@/lib/chain/sender";

// What the sender's tests start from: the database, and the test file's own treasury key
// and test USDC contract (test/setup-chain.ts), with the USDC transfers they send through it.

export interface TreasurySender {
  db: Db;
  /** The treasury's private key: the signer the sender uses. */
  key: Hex;
  treasury: Address;
  usdc: Address;
}

/** The database and the treasury signer; call it in `beforeAll`, once the chain env is set. */
export async function treasurySender(): Promise<TreasurySender> {
  const db = await getDb();
  const key = requireTreasury();
  return { db, key, treasury: privateKeyToAccount(key).address, usdc: requireUsdc() };
}

/** A fresh address nobody holds the key of. */
export const newAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** A sender call moving `amount` base units of test USDC (`usdc`) from the signer to `to`. */
export const usdcTransfer = (usdc: Address, to: Address, amount: bigint, purpose: string) => ({
  to: usdc,
  data: encodeFunctionData({ abi: mockUsdcAbi, functionName: "transfer", args: [to, amount] }),
  purpose,
});

/** `who`'s balance of the test USDC at `usdc`, in base units. */
export const usdcBalance = (usdc: Address, who: Address): Promise<bigint> =>
  publicClient().readContract({
    address: usdc,
    abi: mockUsdcAbi,
    functionName: "balanceOf",
    args: [who],
  });

/**
 * Dates the signer's last nonce allocation and the row `txId` a minute back: a nonce missing
 * below that row then counts as abandoned (fillNonceGaps), as it does once nothing has
 * recorded it for longer than a recording takes.
 */
export async function ageNonceActivity(
  db: Db,
  s: { chainId: number; from: string },
  txId: string,
): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await db
    .update(signerNonces)
    .set({ updatedAt: past })
    .where(and(eq(signerNonces.chainId, s.chainId), eq(signerNonces.address, s.from)));
  await db.update(chainTransactions).set({ createdAt: past }).where(eq(chainTransactions.id, txId));
}

/**
 * What a signer's nonces look like: its counter's next nonce (the node's count while it has
 * no counter yet), when the counter last moved, and how many no-op fills it has. Unchanged
 * across a call: that call allocated no nonce.
 */
export async function signerNonceState(db: Db, from: Address) {
  const chainId = chainConfig().chainId;
  const [counter] = await db
    .select()
    .from(signerNonces)
    .where(and(eq(signerNonces.chainId, chainId), eq(signerNonces.address, from)));
  const fills = await db
    .select({ id: chainTransactions.id })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, chainId),
        eq(chainTransactions.fromAddress, from),
        eq(chainTransactions.purpose, NONCE_FILL_PURPOSE),
      ),
    );
  const next = counter?.nextNonce ?? (await publicClient().getTransactionCount({ address: from }));
  return { next, moved: counter?.updatedAt.getTime(), fills: fills.length };
}
