import { type Address, encodeFunctionData, erc20Abi, parseEventLogs } from "viem";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { chainConfig, publicClient, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { sendTransaction } from "@/lib/chain/sender";
import { signIn, type TestSession, uniqueEmail } from "../helpers/auth";

// Creators with an embedded wallet (the dev identity provider's) holding test USDC, and what
// the chain says about USDC balances and transfers.

export type EmbeddedCreator = TestSession & { wallet: Address };

/** Test USDC minted by the treasury (the token's owner) to `to`. */
export async function mintUsdc(to: Address, units: bigint): Promise<void> {
  const row = await sendTransaction(await getDb(), requireTreasury(), {
    to: requireUsdc(),
    data: encodeFunctionData({ abi: mockUsdcAbi, functionName: "mint", args: [to, units] }),
    purpose: `test-mint:${to}`,
  });
  if (row.status !== "confirmed") throw new Error(`mint ${row.status}`);
}

/** A creator signed in through the dev provider with its embedded wallet, holding `units`. */
export async function embeddedCreator(units = 0n): Promise<EmbeddedCreator> {
  const session = await signIn({ email: uniqueEmail("cashout"), embeddedWallet: true });
  // Sign-in linked the provider's embedded wallet (its address came in the identity token).
  const wallet = session.user.walletAddress as Address;
  if (!wallet) throw new Error("sign-in linked no embedded wallet");
  if (units > 0n) await mintUsdc(wallet, units);
  return { ...session, wallet };
}

export const usdcBalance = (who: Address) =>
  publicClient().readContract({
    address: requireUsdc(),
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [who],
  });

export const ethBalance = (who: Address) => publicClient().getBalance({ address: who });

/** Every USDC Transfer to `to` on the chain so far. */
export async function usdcTransfersTo(to: Address) {
  const usdc = chainConfig().usdc;
  if (!usdc) throw new Error("no USDC deployment");
  const logs = await publicClient().getLogs({ address: usdc, fromBlock: 0n, toBlock: "latest" });
  return parseEventLogs({ abi: mockUsdcAbi, logs, eventName: "Transfer" }).filter(
    (l) => l.args.to.toLowerCase() === to.toLowerCase(),
  );
}
