import type { Hex } from "viem";
import type { FundingTermsJson } from "@/lib/escrow/deals";
import type { DepositJson } from "@/lib/escrow/deposit";

// What the funding panel reads from GET /api/deals/:id/funding (contract v3).

/** Funding without a wallet: the deal's deposit address and where it stands (lib/escrow/deposit.ts). */
export type { DepositJson };
export type DepositStatus = DepositJson["status"];

export type FundingJson = FundingTermsJson & {
  status: string;
  /**
   * The deal's deposit address, for the refund address named before or the brand's own
   * wallet; null when neither exists yet (the brand names one first). Absent from a server
   * without deposit addresses.
   */
  deposit?: DepositJson | null;
};

export type FundedNotice = { total: string; txHash: string | null };

// The wallet paths' progress, step by step.
export type StepState = "waiting" | "wallet" | "sent" | "done" | "skipped" | "failed";
export type Step = { state: StepState; hash?: Hex };
export type TransactionsRun = {
  method: "transactions";
  approve: Step;
  fund: Step;
  open: Step;
  error?: { message: string; noGas?: boolean };
};
export type SignatureRun = {
  method: "signature";
  sign: Step;
  relay: Step;
  open?: undefined;
  error?: { message: string };
};
export type Run = TransactionsRun | SignatureRun;
