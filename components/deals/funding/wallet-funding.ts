import { type Address, erc20Abi, type Hex } from "viem";
import type { Config } from "wagmi";
import {
  getBalance,
  getBlock,
  readContract,
  signTypedData,
  waitForTransactionReceipt,
  writeContract,
} from "wagmi/actions";
import { milestoneEscrowAbi } from "@/contracts/artifacts/MilestoneEscrow";
import { ApiError, apiFetch } from "@/lib/client/api";
import { receiveAuthorizationTypedData } from "@/lib/escrow/onchain";
import { chainErrorMessage, classify } from "../chain-errors";
import { type DealJson, formatUnitsUsdc } from "../format";
import type { FundedNotice, FundingJson, SignatureRun, Step, TransactionsRun } from "./types";

// The two ways a connected wallet funds the escrow, as plain async steps (the panel runs
// them as mutations and shows their progress):
//  - two wallet transactions: usdc.approve(escrow, total), then escrow.fund(…);
//  - a signature: the brand signs an EIP-3009 ReceiveWithAuthorization and the service's
//    relayer submits it (for a wallet without gas).
// Either way the server then confirms from the chain, which opens the deal.

export type WalletFunding = {
  config: Config;
  dealId: string;
  terms: FundingJson;
  account: Address;
  /** The chain's native currency, for messages about fees. */
  symbol: string;
  /** Whether the local chain's test USDC faucet is there ("Get test USDC"). */
  localChain: boolean;
  /** Whether the service submits signed fundings (so a wallet without fees can sign). */
  gasless: boolean;
};

/** POST …/funding: the server checks the chain and opens the deal (the node may lag a moment). */
async function confirmWithServer(
  dealId: string,
  txHash: Hex | undefined,
  funder: Address,
): Promise<DealJson> {
  for (let attempt = 0; ; attempt++) {
    try {
      // The wallet that funded: the escrow keys the deal by it, so it names the funding.
      const res = await apiFetch<{ deal: DealJson }>(`/api/deals/${dealId}/funding`, {
        body: txHash ? { txHash, brand: funder } : { brand: funder },
      });
      return res.deal;
    } catch (err) {
      if (err instanceof ApiError && err.code === "not_funded" && attempt < 5) {
        await new Promise((r) => setTimeout(r, 1500));
        continue;
      }
      throw err;
    }
  }
}

/** Fresh balance and fees, read just before anything is sent. */
async function preflight(w: WalletFunding, needGas: boolean) {
  const total = BigInt(w.terms.totalUnits);
  const held = await readContract(w.config, {
    address: w.terms.usdc,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [w.account],
    chainId: w.terms.chainId,
  });
  if (held < total)
    throw new Error(
      `This wallet holds ${formatUnitsUsdc(held)}; the deal needs ${formatUnitsUsdc(total)}.${w.localChain ? " Use “Get test USDC” first." : ""}`,
    );
  if (needGas) {
    const native = await getBalance(w.config, { address: w.account, chainId: w.terms.chainId });
    if (native.value === 0n) throw Object.assign(new Error("no gas"), { noGas: true });
  }
}

const failedStep = (s: Step): Step =>
  s.state === "wallet" || s.state === "sent" ? { ...s, state: "failed" } : s;

/**
 * Approve (unless already allowed), fund, confirm. Reports each step through `report`;
 * resolves with the funded notice, or with the run's error recorded (never throws).
 */
export async function fundWithTransactions(
  w: WalletFunding,
  report: (run: TransactionsRun) => void,
): Promise<FundedNotice | null> {
  const { config, terms, account } = w;
  const total = BigInt(terms.totalUnits);
  let current: TransactionsRun = {
    method: "transactions",
    approve: { state: "waiting" },
    fund: { state: "waiting" },
    open: { state: "waiting" },
  };
  const update = (patch: Partial<TransactionsRun>) => {
    current = { ...current, ...patch };
    report(current);
  };
  update({});
  try {
    await preflight(w, true);
    const allowed = await readContract(config, {
      address: terms.usdc,
      abi: erc20Abi,
      functionName: "allowance",
      args: [account, terms.escrow],
      chainId: terms.chainId,
    });
    if (allowed >= total) update({ approve: { state: "skipped" } });
    else {
      update({ approve: { state: "wallet" } });
      const hash = await writeContract(config, {
        account,
        chainId: terms.chainId,
        address: terms.usdc,
        abi: erc20Abi,
        functionName: "approve",
        args: [terms.escrow, total],
      });
      update({ approve: { state: "sent", hash } });
      const receipt = await waitForTransactionReceipt(config, { hash, chainId: terms.chainId });
      if (receipt.status !== "success") throw new Error("The approval failed on-chain.");
      update({ approve: { state: "done", hash } });
    }

    update({ fund: { state: "wallet" } });
    let fundHash: Hex | undefined;
    try {
      fundHash = await writeContract(config, {
        account,
        chainId: terms.chainId,
        address: terms.escrow,
        abi: milestoneEscrowAbi,
        functionName: "fund",
        // The escrow keys the deal by this wallet (the sender) and the deal's ref.
        args: [terms.dealRef, terms.evaluator, BigInt(terms.deadline), terms.amounts.map(BigInt)],
      });
    } catch (err) {
      // Funded already (another tab, or an earlier try): let the server check the terms.
      if (classify(err) !== "already_funded") throw err;
    }
    if (fundHash) {
      update({ fund: { state: "sent", hash: fundHash } });
      const receipt = await waitForTransactionReceipt(config, {
        hash: fundHash,
        chainId: terms.chainId,
      });
      if (receipt.status !== "success") throw new Error("The funding failed on-chain.");
    }
    update({ fund: { state: fundHash ? "done" : "skipped", hash: fundHash } });

    update({ open: { state: "wallet" } });
    const opened = await confirmWithServer(w.dealId, fundHash, account);
    update({ open: { state: "done" } });
    return { total: terms.total, txHash: opened.escrow.fundingTxHash ?? fundHash ?? null };
  } catch (err) {
    const noGas = (err as { noGas?: boolean }).noGas === true || classify(err) === "no_gas";
    update({
      approve: failedStep(current.approve),
      fund: failedStep(current.fund),
      open: failedStep(current.open),
      error: {
        message: noGas
          ? `Your wallet has no ${w.symbol} to pay the network fees.${w.gasless ? " Sign instead: the service pays them." : ""}`
          : chainErrorMessage(err, w.symbol),
        noGas,
      },
    });
    return null;
  }
}

/** Sign the authorization; the service submits it. Same contract as fundWithTransactions. */
export async function fundWithSignature(
  w: WalletFunding,
  report: (run: SignatureRun) => void,
): Promise<FundedNotice | null> {
  const { config, terms, account } = w;
  let current: SignatureRun = {
    method: "signature",
    sign: { state: "waiting" },
    relay: { state: "waiting" },
  };
  const update = (patch: Partial<SignatureRun>) => {
    current = { ...current, ...patch };
    report(current);
  };
  update({});
  try {
    await preflight(w, false);
    // Valid for an hour of chain time (the local chain's clock may run ahead of ours).
    const block = await getBlock(config, { chainId: terms.chainId });
    const now = BigInt(Math.floor(Date.now() / 1000));
    const validBefore = (block.timestamp > now ? block.timestamp : now) + 3600n;
    const typed = receiveAuthorizationTypedData({
      chainId: terms.chainId,
      escrow: terms.escrow,
      usdc: terms.usdc,
      dealRef: terms.dealRef,
      brand: account,
      evaluator: terms.evaluator,
      deadline: BigInt(terms.deadline),
      amounts: terms.amounts.map(BigInt),
      validAfter: 0n,
      validBefore,
    });
    update({ sign: { state: "wallet" } });
    const signature = await signTypedData(config, { account, ...typed });
    update({ sign: { state: "done" }, relay: { state: "wallet" } });
    const res = await apiFetch<{ deal: DealJson }>(`/api/deals/${w.dealId}/funding/authorization`, {
      body: { brand: account, validAfter: 0, validBefore: Number(validBefore), signature },
    });
    update({ relay: { state: "done" } });
    return { total: terms.total, txHash: res.deal.escrow.fundingTxHash };
  } catch (err) {
    const failed = (s: Step): Step => (s.state === "wallet" ? { ...s, state: "failed" } : s);
    update({
      sign: failed(current.sign),
      relay: failed(current.relay),
      error: { message: chainErrorMessage(err, w.symbol) },
    });
    return null;
  }
}

/**
 * "Funded it from your wallet already?": the server looks at the chain, under the connected
 * wallet's key (else the wallet it knows for this deal or account). Throws a sentence.
 */
export async function checkEscrowAgain(
  dealId: string,
  terms: FundingJson,
  account: Address | null,
  symbol: string,
): Promise<FundedNotice> {
  try {
    const opened = await apiFetch<{ deal: DealJson }>(`/api/deals/${dealId}/funding`, {
      body: account ? { brand: account } : {},
    });
    return { total: terms.total, txHash: opened.deal.escrow.fundingTxHash };
  } catch (err) {
    throw new Error(
      err instanceof ApiError && err.code === "not_funded"
        ? account
          ? "The escrow holds nothing for this deal from this wallet yet."
          : "The escrow holds nothing for this deal yet. Connect the wallet you funded it from."
        : chainErrorMessage(err, symbol),
    );
  }
}
