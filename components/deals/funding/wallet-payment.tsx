"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { Address } from "viem";
import { useBalance, useConfig, useConnection, useSwitchChain } from "wagmi";
import { ConnectButton, TestUsdcButton, useChainInfo, useUsdcBalance } from "@/components/wallet";
import { type DealJson, formatUnitsUsdc } from "../format";
import type { RelayStatus } from "../settle-panel";
import { FundingSteps } from "./funding-steps";
import type { FundedNotice, FundingJson, Run } from "./types";
import { WalletConfirm } from "./wallet-confirm";
import { checkEscrowAgain, fundWithSignature, fundWithTransactions } from "./wallet-funding";

// "Pay from a connected wallet": connect a browser wallet, check it holds the total, review
// exactly what is locked and where refunds go, then approve + fund (two transactions) or
// sign (the service submits it and pays the fees). Each action is a mutation.

type Method = "transactions" | "signature";

export function WalletPayment({
  deal,
  terms,
  relay,
  onFunded,
}: {
  deal: DealJson;
  terms: FundingJson;
  relay: RelayStatus | null;
  onFunded(notice: FundedNotice): Promise<void>;
}) {
  const info = useChainInfo();
  const config = useConfig();
  const connection = useConnection();
  const switchChain = useSwitchChain();
  const [confirming, setConfirming] = useState(false);
  const [run, setRun] = useState<Run | null>(null);

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
  const ready = !!address && !wrongNetwork && balance !== undefined && shortBy === 0n;

  const fund = useMutation({
    mutationFn: async (method: Method) => {
      if (!address) return null;
      const w = {
        config,
        dealId: deal.id,
        terms,
        account: address,
        symbol,
        localChain: info.name === "local",
        gasless,
      };
      const notice =
        method === "transactions"
          ? await fundWithTransactions(w, setRun)
          : await fundWithSignature(w, setRun);
      if (notice) await onFunded(notice);
      return notice;
    },
  });
  const check = useMutation({
    mutationFn: async () => onFunded(await checkEscrowAgain(deal.id, terms, address, symbol)),
  });
  const busy = fund.isPending || check.isPending;
  const start = (method: Method) => {
    setConfirming(false);
    fund.mutate(method);
  };

  return (
    <div className="stack" data-testid="wallet-payment">
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
                  Send {formatUnitsUsdc(shortBy)} to this wallet on {info.displayName}, then come
                  back — or pay by transfer instead.
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
            <WalletConfirm
              deal={deal}
              terms={terms}
              wallet={address}
              noGas={noGas}
              gasless={gasless}
              busy={busy}
              onTransactions={() => start("transactions")}
              onSignature={() => start("signature")}
              onBack={() => setConfirming(false)}
            />
          )}
          {run && <FundingSteps run={run} total={formatUnitsUsdc(total)} />}
          {run?.error && !busy && (
            <div className="stack tight">
              <div className="alert error" role="alert" data-testid="funding-error">
                {run.error.message}
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
                {run.method === "transactions" && run.error.noGas && gasless && (
                  <button
                    type="button"
                    className="btn secondary"
                    onClick={() => start("signature")}
                  >
                    Sign instead (no fees)
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
          onClick={() => check.mutate()}
          disabled={busy}
          data-testid="funding-check"
        >
          {check.isPending ? "Checking…" : "Check the escrow again"}
        </button>
        {check.error && !check.isPending && (
          <span className="field-error" role="alert">
            {check.error.message}
          </span>
        )}
      </div>
    </div>
  );
}
