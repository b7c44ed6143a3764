import { shortAddress as shortHexAddress } from "@/lib/client/chain-info";
import type { LedgerEntryJson } from "@/lib/ledger/ledger";

// Words for people (the /ledger page, receipts): what each entry was, without jargon.
// Type-only imports: safe for any page.

export function entryLabel(e: Pick<LedgerEntryJson, "kind" | "reason" | "role">): string {
  switch (e.kind) {
    case "funding":
      return "Deal funded";
    case "release":
      return e.role === "creator" ? "Payout received" : "Payout to creator";
    case "refund":
      switch (e.reason) {
        case "remainder":
          return "Refund (unearned part)";
        case "cancel":
          return "Refund (deal cancelled)";
        case "returned":
          return "Returned from deposit address";
        default:
          return "Refund (deadline passed)";
      }
    case "withdrawal":
      return "Sent out";
  }
}

export const kindOptions = [
  { value: "", label: "All kinds" },
  { value: "funding", label: "Fundings" },
  { value: "release", label: "Payouts" },
  { value: "refund", label: "Refunds" },
  { value: "withdrawal", label: "Sent out" },
] as const;

export const shortAddress = (a: string | null) => (a ? shortHexAddress(a) : "—");

/** "2026-11-24 05:20 UTC": unambiguous for an accountant, the same on server and client. */
export function ledgerDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
