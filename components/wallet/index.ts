// The wallet components, for pages and dashboards (all client components; they need a
// <WalletProvider>: routes that use a wallet mount it through <WalletRoot> in their layout).
export { ConnectButton } from "./connect-button";
export { FaucetButton } from "./faucet-button";
export { LinkWalletButton } from "./link-wallet-button";
export { ReputationBadge, useReputation } from "./reputation-badge";
export { TestUsdcButton } from "./test-usdc-button";
export { UsdcBalance, useRefreshUsdcBalances, useUsdcBalance } from "./usdc-balance";
export { WalletPanel } from "./wallet-panel";
export { useChainInfo, WalletProvider } from "./wallet-provider";
