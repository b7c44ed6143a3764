import { ApiError, errorMessage } from "@/lib/client/api";

// What went wrong with a wallet transaction or signature, in words the brand can act on.
// viem wraps the cause several levels deep (ContractFunctionExecutionError → …), so the
// chain of causes is walked by error name (names survive bundling; classes may not).

export type ChainProblem =
  | "rejected"
  | "no_gas"
  | "wrong_network"
  | "insufficient_usdc"
  | "insufficient_allowance"
  | "already_funded"
  | "creator_assigned"
  | "not_brand"
  | "other";

type Walkable = {
  name?: unknown;
  code?: unknown;
  cause?: unknown;
  shortMessage?: unknown;
  message?: unknown;
  data?: { errorName?: unknown };
};

function causes(err: unknown): Walkable[] {
  const out: Walkable[] = [];
  let e: unknown = err;
  while (e && typeof e === "object" && out.length < 12) {
    out.push(e as Walkable);
    e = (e as Walkable).cause;
  }
  return out;
}

/** The contract's custom error name, when the transaction reverted with one. */
export function revertName(err: unknown): string | null {
  for (const e of causes(err)) {
    const name = e.data?.errorName;
    if (typeof name === "string") return name;
  }
  return null;
}

export function classify(err: unknown): ChainProblem {
  const chain = causes(err);
  const text = chain
    .map((e) => `${String(e.name ?? "")} ${String(e.shortMessage ?? e.message ?? "")}`)
    .join(" ");
  if (chain.some((e) => e.name === "UserRejectedRequestError" || e.code === 4001))
    return "rejected";
  if (/user (rejected|denied)|rejected the request/i.test(text)) return "rejected";
  if (
    chain.some((e) => e.name === "ChainMismatchError" || e.name === "ConnectorChainMismatchError")
  )
    return "wrong_network";
  switch (revertName(err)) {
    case "ERC20InsufficientBalance":
      return "insufficient_usdc";
    case "ERC20InsufficientAllowance":
      return "insufficient_allowance";
    case "DealExists":
      return "already_funded";
    case "CreatorAlreadyAssigned":
      return "creator_assigned";
    case "NotBrand":
      return "not_brand";
  }
  if (chain.some((e) => e.name === "InsufficientFundsError")) return "no_gas";
  if (/insufficient funds|gas required exceeds allowance/i.test(text)) return "no_gas";
  return "other";
}

/** A sentence for the UI; `symbol` is the chain's gas token ("ETH"). */
export function chainErrorMessage(err: unknown, symbol = "ETH"): string {
  if (err instanceof ApiError) return err.message;
  switch (classify(err)) {
    case "rejected":
      return "You declined the request in your wallet. Nothing was sent and no money moved.";
    case "no_gas":
      return `Your wallet has no ${symbol} to pay the network fee.`;
    case "wrong_network":
      return "Your wallet is on another network. Switch it to this app's network and try again.";
    case "insufficient_usdc":
      return "This wallet does not hold enough USDC for the deal's total.";
    case "insufficient_allowance":
      return "The escrow is not approved to take the full total yet. Approve it first.";
    case "already_funded":
      return "The escrow already holds this deal.";
    case "creator_assigned":
      return "A creator has taken this deal, so it can no longer be cancelled.";
    case "not_brand":
      return "Only the wallet that funded this deal can cancel it.";
    default: {
      for (const e of causes(err))
        if (typeof e.shortMessage === "string" && e.shortMessage) return e.shortMessage;
      return errorMessage(err);
    }
  }
}
