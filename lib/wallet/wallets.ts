import "server-only";
import { type Address, erc20Abi, getAddress, isAddressEqual } from "viem";
import type { Db } from "@/db/client";
import { brandFundingWallets, listWithdrawals } from "@/db/queries/withdrawals";
import type { User } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { explorerAddressUrl } from "@/lib/chain/explorer";
import { chainUnavailable, isTransportError } from "@/lib/chain/sender";
import { env } from "@/lib/env";
import { unitsToDecimal } from "@/lib/money";
import { offrampUrl, onrampUrl } from "@/lib/wallet/ramps";
import type { WalletOverviewJson, WalletRole } from "@/lib/wallet/schemas";
import { embeddedWalletSigner } from "@/lib/wallet/signer";
import { withdrawalJson } from "@/lib/wallet/withdraw";

// GET /api/wallet: the wallets that really hold the user's money, each with its USDC balance
// read on-chain — the embedded wallet the sign-in provider holds, the linked payout wallet,
// and for a brand every wallet that funded its deals (deals.brand_wallet) — plus the latest
// sends from the embedded wallet.

const LABELS: Record<WalletRole, string> = {
  embedded: "Signed-in wallet",
  linked: "Linked wallet",
  funding: "Funding wallet",
};

export async function walletOverview(
  db: Db,
  user: Pick<User, "id" | "issuer" | "subject" | "walletAddress" | "walletSource">,
): Promise<WalletOverviewJson> {
  const config = chainConfig();
  const e = env();
  const signer = embeddedWalletSigner(e);
  const embedded = signer ? await signer.address(user) : null;
  const listed: { address: Address; roles: WalletRole[] }[] = [];
  const add = (raw: string | null | undefined, role: WalletRole) => {
    if (!raw) return;
    const address = getAddress(raw.toLowerCase());
    const entry = listed.find((w) => isAddressEqual(w.address, address));
    if (entry) {
      if (!entry.roles.includes(role)) entry.roles.push(role);
    } else listed.push({ address, roles: [role] });
  };
  add(embedded, "embedded");
  // Without a signer, a wallet the provider delivered in the token is still the signed-in one.
  add(user.walletAddress, user.walletSource === "identity_token" ? "embedded" : "linked");
  const [funding, sent] = await Promise.all([
    brandFundingWallets(db, user.id),
    listWithdrawals(db, { userId: user.id, chainId: config.chainId, limit: 20 }),
  ]);
  for (const w of funding) add(w, "funding");

  const balances = await Promise.all(
    listed.map(async (w) => {
      if (!config.usdc) return 0n;
      try {
        return await publicClient().readContract({
          address: config.usdc,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [w.address],
        });
      } catch (err) {
        if (isTransportError(err)) throw chainUnavailable(err);
        throw err;
      }
    }),
  );
  // The provider holds a wallet for every account it signs in; one the user never took (it is
  // not their wallet, holds nothing and sent nothing) is left out rather than shown empty.
  const untouched = (w: (typeof listed)[number] & { balance: bigint }) =>
    w.roles.length === 1 &&
    w.roles[0] === "embedded" &&
    !(
      user.walletAddress && isAddressEqual(w.address, getAddress(user.walletAddress.toLowerCase()))
    ) &&
    w.balance === 0n &&
    !sent.some((s) => isAddressEqual(getAddress(s.fromAddress.toLowerCase()), w.address));
  const shown = listed
    .map((w, i) => ({ ...w, balance: balances[i] ?? 0n }))
    .filter((w) => !untouched(w));
  const canSend = Boolean(signer && embedded && config.usdc && config.sponsorKey);
  const network = config.known.name;
  return {
    chainId: config.chainId,
    network,
    networkName: network === "local" ? "Local chain (anvil)" : config.known.chain.name,
    token: { symbol: "USDC", address: config.usdc },
    canSend,
    wallets: shown.map((w) => {
      const balance = unitsToDecimal(w.balance);
      return {
        address: w.address,
        label: LABELS[w.roles[0] as WalletRole],
        roles: w.roles,
        balance,
        canSend: canSend && embedded !== null && isAddressEqual(w.address, embedded),
        explorerUrl: explorerAddressUrl(config.chainId, w.address),
        onrampUrl: onrampUrl(e.ONRAMP_URL, { address: w.address, network, token: "USDC" }),
        offrampUrl: offrampUrl(e.OFFRAMP_URL, {
          address: w.address,
          amount: balance,
          network,
          token: "USDC",
        }),
      };
    }),
    withdrawals: sent.map(withdrawalJson),
  };
}
