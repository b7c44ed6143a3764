import { errorMessage } from "@/lib/client/api";

// A sentence for the UI from a wallet (wagmi/viem) or API error.
export function walletErrorMessage(err: unknown): string {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; shortMessage?: unknown; code?: unknown };
    if (e.name === "UserRejectedRequestError" || e.code === 4001)
      return "You declined the request in your wallet.";
    if (e.name === "ProviderNotFoundError")
      return "No browser wallet found. Install one (e.g. MetaMask or Rabby) and reload.";
    if (typeof e.shortMessage === "string") return e.shortMessage;
  }
  return errorMessage(err);
}
