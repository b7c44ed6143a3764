import { eq } from "drizzle-orm";
import { type Address, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { settlements } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { makeUser, type TestUser } from "../helpers/users";

// Parties for settlement tests: a brand, and a creator with a wallet of its own that no
// other test touches, so its on-chain balance tells exactly what was paid.

export async function parties(): Promise<{ brand: TestUser; creator: TestUser; wallet: Address }> {
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  const brand = await makeUser("organization");
  const creator = await makeUser("creator", { walletAddress: wallet });
  return { brand, creator, wallet };
}

export async function usdcBalance(address: Address): Promise<bigint> {
  const usdc = chainConfig().usdc;
  if (!usdc) throw new Error("no USDC deployment");
  return publicClient().readContract({
    address: usdc,
    abi: mockUsdcAbi,
    functionName: "balanceOf",
    args: [address],
  });
}

/** Every USDC Transfer to `to` since the token was deployed, read from the chain. */
export async function transfersTo(to: Address) {
  const usdc = chainConfig().usdc;
  if (!usdc) throw new Error("no USDC deployment");
  const logs = await publicClient().getLogs({ address: usdc, fromBlock: 0n, toBlock: "latest" });
  return parseEventLogs({ abi: mockUsdcAbi, logs, eventName: "Transfer" }).filter(
    (l) => l.args.to.toLowerCase() === to.toLowerCase(),
  );
}

export async function settlementRows(milestoneId: string) {
  const db = await getDb();
  return db.select().from(settlements).where(eq(settlements.milestoneId, milestoneId));
}
