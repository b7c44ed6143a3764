"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Address, erc20Abi, type Hex, isAddressEqual } from "viem";
import { useBalance, useConfig, useConnection, useSwitchChain } from "wagmi";
import {
  getBalance,
  getBlock,
  readContract,
  signTypedData,
  waitForTransactionReceipt,
  writeContract,
} from "wagmi/actions";
import { ConnectButton, TestUsdcButton, useChainInfo, useUsdcBalance } from "@/components/wallet";
import { milestoneEscrowAbi } from "@/contracts/artifacts/MilestoneEscrow";
import { ApiError, apiFetch } from "@/lib/client/api";
import type { FundingTermsJson } from "@/lib/escrow/deals";
import { receiveAuthorizationTypedData } from "@/lib/escrow/onchain";
import { chainErrorMessage, classify } from "./chain-errors";
import { AddressLink, TxLink } from "./escrow-views";
import { type DealJson, formatDate, formatUnitsUsdc } from "./format";
import { asApiError } from "./queries";
import type { RelayStatus } from "./settle-panel";

// The brand funds an unfunded deal: its budget goes into the escrow contract from the
// brand's own wallet, after which creators can see and take it. Two ways:
//  - two wallet transactions: usdc.approve(escrow, total), then escrow.fund(…);
//  - gasless: the brand signs an EIP-3009 ReceiveWithAuthorization and the service's
//    relayer submits it (for a wallet without gas).
// Either way the page then asks the server to confirm from the chain, which opens the deal.
// Nothing moves before the brand has seen exactly what is locked and where refunds go.

type Terms = FundingTermsJson & { status: string };

type StepState = "waiting" | "wallet" | "sent" | "done" | "skipped" | "failed";
type Step = { state: StepState; hash?: Hex };
type Run =
  | {
      method: "transactions";
      approve: Step;
      fund: Step;
      open: Step;
      error?: { message: string; noGas?: boolean };
    }
  | { method: "signature"; sign: Step; relay: Step; open?: undefined; error?: { message: string } };

export type FundedNotice = { total: string; txHash: string | null };

export function FundingPanel({
  deal,
  relay,
  onFunded,
}: {
  deal: DealJson;
  relay: RelayStatus | null;
  onFunded(notice: FundedNotice): Promise<void>;
}) {
  const terms = useQuery({
    // The terms follow the deal's: an edit (a new termsVersion) reads them afresh.
    queryKey: ["funding-terms", deal.id, deal.termsVersion],
    queryFn: ({ signal }) =>
      apiFetch<{ funding: Terms }>(`/api/deals/${deal.id}/funding`, { signal }),
  });
  const t = terms.data?.funding;

  return (
    <section
      className="card stack funding"
      data-testid="funding-panel"
      aria-labelledby="fund-title"
    >
      <div className="spread">
        <h2 id="fund-title">Fund the escrow</h2>
        <span className="budget" data-testid="funding-total">
          {formatUnitsUsdc(BigInt(t?.totalUnits ?? Math.round(deal.budget * 1e6)))}
        </span>
      </div>
      <p className="muted small">
        Creators see this deal once its budget is locked in the escrow contract. The escrow pays
        each milestone to the creator when it passes the AI check, and sends everything else back to
        you.
      </p>
      <Split deal={deal} terms={t} />
      {terms.error ? (
        <div className="alert error" role="alert">
          The funding terms could not be loaded: {asApiError(terms.error).message}{" "}
          <button
            type="button"
            className="btn small secondary"
            onClick={() => void terms.refetch()}
          >
            Try again
          </button>
        </div>
      ) : !t ? (
        <div className="skeleton" style={{ height: "6rem" }} />
      ) : (
        <FundingFlow deal={deal} terms={t} relay={relay} onFunded={onFunded} />
      )}
    </section>
  );
}

/** The milestones and what each locks, and the total. */
function Split({ deal, terms }: { deal: DealJson; terms: Terms | undefined }) {
  return (
    <table className="split" data-testid="funding-split">
      <caption className="muted small">What the escrow will hold</caption>
      <tbody>
        {deal.milestones.map((m, i) => (
          <tr key={m.id}>
            <th scope="row">
              <span className="muted small">Milestone {i + 1}</span> {m.title}
            </th>
            <td>
              {formatUnitsUsdc(
                BigInt(terms?.amounts[i] ?? Math.round(m.amount * 1_000_000).toString()),
              )}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{formatUnitsUsdc(BigInt(terms?.totalUnits ?? Math.round(deal.budget * 1e6)))}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function FundingFlow({
  deal,
  terms,
  relay,
  onFunded,
}: {
  deal: DealJson;
  terms: Terms;
  relay: RelayStatus | null;
  onFunded(notice: FundedNotice): Promise<void>;
}) {
  const info = useChainInfo();
  const config = useConfig();
  const connection = useConnection();
  const switchChain = useSwitchChain();
  const [confirming, setConfirming] = useState(false);
  const [run, setRun] = useState<Run | null>(null);
  const [busy, setBusy] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);

  const address = connection.status === "connected" ? (connection.address as Address) : null;
  const wrongNetwork = !!address && connection.chainId !== terms.chainId;
  const total = BigInt(terms.totalUnits);
  const symbol = info.nativeCurrency.symbol;
  const usdc = useUsdcBalance(address);
  const gas = useBalance({ address: address ?? undefined, query: { enabled: !!address } });
  const balance = usdc.data;
  const shortBy = balance !== undefined && balance < total ? total - balance : 0n;
  const noGas = gas.data !== undefined && gas.data.value === 0n;
  const gasless = !!relay?.supported;
  const deadline = new Date(terms.deadline * 1000).toISOString();
  const refundable = new Date((terms.deadline + terms.graceSeconds) * 1000).toISOString();
  const ready = !!address && !wrongNetwork && balance !== undefined && shortBy === 0n;

  /** POST …/funding: the server checks the chain and opens the deal (the node may lag a moment). */
  async function confirmWithServer(txHash: Hex | undefined): Promise<DealJson> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await apiFetch<{ deal: DealJson }>(`/api/deals/${deal.id}/funding`, {
          body: txHash ? { txHash } : {},
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

  /** Fresh balance and gas, read just before anything is sent. */
  async function preflight(account: Address, needGas: boolean) {
    const held = await readContract(config, {
      address: terms.usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account],
      chainId: terms.chainId,
    });
    if (held < total)
      throw new Error(
        `This wallet holds ${formatUnitsUsdc(held)}; the deal needs ${formatUnitsUsdc(total)}.${info.name === "local" ? " Use “Get test USDC” first." : ""}`,
      );
    if (needGas) {
      const native = await getBalance(config, { address: account, chainId: terms.chainId });
      if (native.value === 0n) throw Object.assign(new Error("no gas"), { noGas: true });
    }
  }

  async function fundWithTransactions() {
    if (!address) return;
    const account = address;
    setBusy(true);
    let current: Extract<Run, { method: "transactions" }> = {
      method: "transactions",
      approve: { state: "waiting" },
      fund: { state: "waiting" },
      open: { state: "waiting" },
    };
    const update = (patch: Partial<typeof current>) => {
      current = { ...current, ...patch };
      setRun(current);
    };
    update({});
    try {
      await preflight(account, true);
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
          args: [terms.dealKey, terms.evaluator, BigInt(terms.deadline), terms.amounts.map(BigInt)],
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
      const opened = await confirmWithServer(fundHash);
      update({ open: { state: "done" } });
      await onFunded({
        total: terms.total,
        txHash: opened.escrow.fundingTxHash ?? fundHash ?? null,
      });
    } catch (err) {
      const noGasProblem =
        (err as { noGas?: boolean }).noGas === true || classify(err) === "no_gas";
      const failed = (s: Step): Step =>
        s.state === "wallet" || s.state === "sent" ? { ...s, state: "failed" } : s;
      update({
        approve: failed(current.approve),
        fund: failed(current.fund),
        open: failed(current.open),
        error: {
          message: noGasProblem
            ? `Your wallet has no ${symbol} to pay the network fees.${gasless ? " Sign instead: the service pays them." : ""}`
            : chainErrorMessage(err, symbol),
          noGas: noGasProblem,
        },
      });
    } finally {
      setBusy(false);
    }
  }

  async function fundWithSignature() {
    if (!address) return;
    const account = address;
    setBusy(true);
    let current: Extract<Run, { method: "signature" }> = {
      method: "signature",
      sign: { state: "waiting" },
      relay: { state: "waiting" },
    };
    const update = (patch: Partial<typeof current>) => {
      current = { ...current, ...patch };
      setRun(current);
    };
    update({});
    try {
      await preflight(account, false);
      // Valid for an hour of chain time (the local chain's clock may run ahead of ours).
      const block = await getBlock(config, { chainId: terms.chainId });
      const now = BigInt(Math.floor(Date.now() / 1000));
      const validBefore = (block.timestamp > now ? block.timestamp : now) + 3600n;
      const typed = receiveAuthorizationTypedData({
        chainId: terms.chainId,
        escrow: terms.escrow,
        usdc: terms.usdc,
        dealKey: terms.dealKey,
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
      const res = await apiFetch<{ deal: DealJson }>(
        `/api/deals/${deal.id}/funding/authorization`,
        { body: { brand: account, validAfter: 0, validBefore: Number(validBefore), signature } },
      );
      update({ relay: { state: "done" } });
      await onFunded({ total: terms.total, txHash: res.deal.escrow.fundingTxHash });
    } catch (err) {
      const failed = (s: Step): Step => (s.state === "wallet" ? { ...s, state: "failed" } : s);
      update({
        sign: failed(current.sign),
        relay: failed(current.relay),
        error: { message: chainErrorMessage(err, symbol) },
      });
    } finally {
      setBusy(false);
    }
  }

  /** "Already funded from your wallet?": the server looks at the chain. */
  async function checkAgain() {
    setBusy(true);
    setCheckError(null);
    try {
      const opened = await apiFetch<{ deal: DealJson }>(`/api/deals/${deal.id}/funding`, {
        body: {},
      });
      await onFunded({ total: terms.total, txHash: opened.deal.escrow.fundingTxHash });
    } catch (err) {
      setCheckError(
        err instanceof ApiError && err.code === "not_funded"
          ? "The escrow holds nothing for this deal yet."
          : chainErrorMessage(err, symbol),
      );
    } finally {
      setBusy(false);
    }
  }

  const runFailed = run?.error !== undefined;

  return (
    <>
      <ol className="funding-steps">
        <li>
          <h3>1. Your wallet</h3>
          <ConnectButton />
          {address && wrongNetwork && (
            <div className="alert warn spread" role="alert">
              <span>Your wallet is on another network. Switch it to {info.displayName}.</span>
              <button
                type="button"
                className="btn small"
                disabled={switchChain.isPending}
                onClick={() => switchChain.mutate({ chainId: terms.chainId })}
              >
                Switch network
              </button>
            </div>
          )}
        </li>
        <li>
          <h3>2. USDC to lock</h3>
          {!address ? (
            <p className="muted small">Connect the wallet that will fund the deal.</p>
          ) : (
            <div className="stack tight">
              <p className="small" data-testid="funding-balance">
                This wallet holds{" "}
                <strong>{balance === undefined ? "…" : formatUnitsUsdc(balance)}</strong>
                {shortBy > 0n ? (
                  <span className="warn-text">
                    {" "}
                    — {formatUnitsUsdc(shortBy)} short of the total.
                  </span>
                ) : balance !== undefined ? (
                  <span className="ok-text"> — enough for this deal.</span>
                ) : null}
              </p>
              {shortBy > 0n && info.name !== "local" && (
                <p className="small muted">
                  Send {formatUnitsUsdc(shortBy)} to this wallet on {info.displayName} (a testnet
                  USDC faucet works), then come back.
                </p>
              )}
              <TestUsdcButton address={address} primary={shortBy > 0n} />
              {noGas && (
                <p className="small warn-text" data-testid="no-gas">
                  This wallet has no {symbol} for network fees.
                  {gasless ? " You can sign instead: the service pays the fees." : ""}
                </p>
              )}
            </div>
          )}
        </li>
        <li>
          <h3>3. Lock the budget</h3>
          {!confirming && !run && (
            <div className="row">
              <button
                type="button"
                className="btn"
                disabled={!ready}
                onClick={() => setConfirming(true)}
              >
                Review and fund
              </button>
              {!ready && (
                <span className="muted small">
                  {!address
                    ? "Connect a wallet first."
                    : wrongNetwork
                      ? "Switch networks first."
                      : "Get enough USDC first."}
                </span>
              )}
            </div>
          )}
          {confirming && address && (
            <div className="confirm stack" data-testid="funding-confirm">
              <p>
                <strong>
                  Lock {formatUnitsUsdc(total)} in the escrow for “{deal.title}”.
                </strong>
              </p>
              <dl className="confirm-facts">
                <div>
                  <dt>From</dt>
                  <dd className="kv-value">
                    your wallet <AddressLink address={address} />
                  </dd>
                </div>
                <div>
                  <dt>Into</dt>
                  <dd className="kv-value">
                    the escrow contract <AddressLink address={terms.escrow} /> on {info.displayName}
                  </dd>
                </div>
                <div>
                  <dt>Paid out</dt>
                  <dd className="kv-value">
                    only to the creator who takes the deal, milestone by milestone, when
                    Milestone&apos;s verifier (<AddressLink address={terms.evaluator} />) releases
                    it: amount × the AI&apos;s score
                  </dd>
                </div>
                <div>
                  <dt>Refunds go to</dt>
                  <dd className="kv-value">
                    this same wallet: the unpaid part of each milestone; everything if you cancel
                    before a creator takes the deal; and any milestone still locked after{" "}
                    {formatDate(refundable, true)} (the deadline, {formatDate(deadline)}, plus 7
                    days)
                  </dd>
                </div>
              </dl>
              {noGas && gasless && (
                <div className="alert warn small">
                  No {symbol} for fees in this wallet: sign instead, the service pays them.
                </div>
              )}
              <div className="row">
                <button
                  type="button"
                  className={noGas && gasless ? "btn secondary" : "btn"}
                  disabled={busy}
                  onClick={() => {
                    setConfirming(false);
                    void fundWithTransactions();
                  }}
                >
                  Approve and fund
                </button>
                {gasless && (
                  <button
                    type="button"
                    className={noGas ? "btn" : "btn secondary"}
                    disabled={busy}
                    onClick={() => {
                      setConfirming(false);
                      void fundWithSignature();
                    }}
                    title="Sign an authorization instead of sending transactions: no gas needed"
                  >
                    Sign instead (no gas)
                  </button>
                )}
                <button
                  type="button"
                  className="btn ghost"
                  disabled={busy}
                  onClick={() => setConfirming(false)}
                >
                  Back
                </button>
              </div>
              <p className="muted small">
                Approve and fund: two transactions from your wallet (allow the escrow to take the
                total, then lock it). Sign instead: one signature, and the service submits it.
              </p>
            </div>
          )}
          {run && <FundingSteps run={run} total={formatUnitsUsdc(total)} />}
          {run && runFailed && !busy && (
            <div className="stack tight">
              <div className="alert error" role="alert" data-testid="funding-error">
                {run.error?.message}
              </div>
              <div className="row">
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    setRun(null);
                    setConfirming(true);
                  }}
                >
                  Try again
                </button>
                {run.method === "transactions" && run.error?.noGas && gasless && (
                  <button type="button" className="btn secondary" onClick={fundWithSignature}>
                    Sign instead (no gas)
                  </button>
                )}
              </div>
            </div>
          )}
        </li>
      </ol>
      <div className="row small muted">
        <span>Funded it from your wallet already?</span>
        <button
          type="button"
          className="btn small ghost"
          onClick={checkAgain}
          disabled={busy}
          data-testid="funding-check"
        >
          Check the escrow again
        </button>
        {checkError && <span className="field-error">{checkError}</span>}
      </div>
    </>
  );
}

const stepClass: Record<StepState, string> = {
  waiting: "waiting",
  wallet: "running",
  sent: "running",
  done: "done",
  skipped: "done",
  failed: "failed",
};

/** Progress: waiting for the wallet → sent (with its transaction) → confirmed. */
function FundingSteps({ run, total }: { run: Run; total: string }) {
  if (run.method === "signature")
    return (
      <ol className="steps" aria-live="polite" data-testid="funding-steps">
        <li className={stepClass[run.sign.state]}>
          <span>
            {run.sign.state === "wallet"
              ? "Sign the authorization in your wallet…"
              : run.sign.state === "done"
                ? `Signed: the escrow may take ${total} from your wallet for this deal only`
                : run.sign.state === "failed"
                  ? "Not signed"
                  : `Sign an authorization for ${total}`}
          </span>
        </li>
        <li className={stepClass[run.relay.state]}>
          <span data-testid={run.relay.state === "done" ? "funding-confirmed" : undefined}>
            {run.relay.state === "wallet"
              ? "The service is submitting it and paying the fee…"
              : run.relay.state === "done"
                ? `Confirmed — ${total} locked in the escrow. The deal is open.`
                : run.relay.state === "failed"
                  ? "Not submitted"
                  : "The service submits it (no gas for you)"}
          </span>
        </li>
      </ol>
    );

  const txStep = (
    step: Step,
    what: string,
    waitingText: string,
    doneText: string,
    skippedText: string,
  ) => (
    <li className={stepClass[step.state]}>
      <span>
        {step.state === "wallet"
          ? `Confirm the ${what} in your wallet…`
          : step.state === "sent"
            ? `${what[0]?.toUpperCase()}${what.slice(1)} sent — waiting for confirmation…`
            : step.state === "done"
              ? doneText
              : step.state === "skipped"
                ? skippedText
                : step.state === "failed"
                  ? `The ${what} did not go through`
                  : waitingText}
      </span>
      {step.hash && <TxLink hash={step.hash} />}
    </li>
  );
  return (
    <ol className="steps" aria-live="polite" data-testid="funding-steps">
      {txStep(
        run.approve,
        "approval",
        `Approve: let the escrow take ${total}`,
        `Approved: the escrow may take ${total}`,
        `Already approved for ${total}`,
      )}
      {txStep(
        run.fund,
        "funding",
        `Fund: lock ${total} in the escrow`,
        `${total} locked in the escrow`,
        "The escrow already holds it",
      )}
      <li className={stepClass[run.open.state]}>
        <span data-testid={run.open.state === "done" ? "funding-confirmed" : undefined}>
          {run.open.state === "wallet"
            ? "Checking the escrow and opening the deal…"
            : run.open.state === "done"
              ? "Confirmed — the deal is open to creators"
              : run.open.state === "failed"
                ? "The deal was not opened"
                : "Open the deal to creators"}
        </span>
      </li>
    </ol>
  );
}

/** Whether `a` is the same address as `b` (either may be missing). */
export const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && isAddressEqual(a as Address, b as Address);
