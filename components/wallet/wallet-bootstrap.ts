import "server-only";
import { headers } from "next/headers";
import { cookieToInitialState } from "wagmi";
import { publicChainInfo } from "@/lib/chain/public-info";
import { getConfig } from "@/lib/client/wagmi";

// Server side of the wallet setup: reads the chain configuration at request time (not at
// build time) and the wallet connection remembered in the cookie. Kept apart from
// <WalletRoot> on purpose: a page that imports this module (the creator dashboard, which
// loads its wallet panel lazily) must not import the client <WalletProvider> as well, or
// the bundler puts the whole wallet stack into that page's first load.

/** What the client wallet provider needs from the server for this request. */
export async function walletBootstrap() {
  const cookie = (await headers()).get("cookie");
  const info = publicChainInfo();
  return { info, initialState: cookieToInitialState(getConfig(info), cookie) };
}
