"use client";

import { useState } from "react";
import { type Address, type Hex, isAddressEqual } from "viem";
import { useConfig, useConnection, useSwitchChain } from "wagmi";
import { waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { ConnectButton, useChainInfo } from "@/components/wallet";
import { milestoneEscrowAbi } from "@/contracts/artifacts/MilestoneEscrow";
import { ApiError, apiFetch } from "@/lib/client/api";
import { dealKey } from "@/lib/escrow/onchain";
import { chainErrorMessage, revertName } from "./chain-errors";
import { ConfirmBox, useConfirmedAction } from "./confirmed-action";
import { AddressLink, TxLink } from "./escrow-views";
import { cancellable, canReclaim, type DealJson, formatDate, formatUsdc } from "./format";

// The brand's ways to get money back. Before a creator takes the deal the brand may cancel:
// an unfunded deal at once; a funded one only by its own wallet calling escrow.cancel (the
// service cannot move it), after which the server confirms from the chain. After the deadline
// plus the grace period, milestones still locked can be reclaimed.

export function EscrowActions({ deal, onChanged }: { deal: DealJson; onChanged(): Promise<void> }) {
  if (cancellable(deal))
    return deal.status === "unfunded" ? (
      <CancelUnfunded deal={deal} onChanged={onChanged} />
    ) : (
      <CancelFunded deal={deal} onChanged={onChanged} />
    );
  if (canReclaim(deal)) return <Reclaim deal={deal} onChanged={onChanged} />;
  return null;
}

function CancelUnfunded({ deal, onChanged }: { deal: DealJson; onChanged(): Promise<void> }) {
  const cancel = useConfirmedAction(() => apiFetch(`/api/deals/${deal.id}/cancel`, { body: {} }), {
    onChanged,
  });

  return (
    <section className="stack tight cancel-deal" data-testid="cancel-deal">
      {!cancel.confirming ? (
        <div className="row small muted">
          <span>Changed your mind?</span>
          <button type="button" className="btn small ghost" onClick={cancel.ask}>
            Cancel this deal
          </button>
        </div>
      ) : (
        <ConfirmBox
          danger
          confirmLabel="Yes, cancel the deal"
          busyLabel="Cancelling…"
          backLabel="Keep it"
          busy={cancel.busy}
          onConfirm={() => void cancel.send()}
          onBack={cancel.back}
        >
          <span>
            Cancel “{deal.title}”? Nothing has been funded, so no money moves; the deal just closes.
          </span>
        </ConfirmBox>
      )}
      {cancel.error && (
        <div className="alert error" role="alert">
          {chainErrorMessage(cancel.error)}
        </div>
      )}
    </section>
  );
}

type CancelStep = "idle" | "confirm" | "wallet" | "sent" | "reporting" | "failed";

function CancelFunded({ deal, onChanged }: { deal: DealJson; onChanged(): Promise<void> }) {
  const info = useChainInfo();
  const config = useConfig();
  const connection = useConnection();
  const switchChain = useSwitchChain();
  const [step, setStep] = useState<CancelStep>("idle");
  const [hash, setHash] = useState<Hex | null>(null);
  const [error, setError] = useState<string | null>(null);

  const escrow = deal.escrow.address as Address | null;
  const brandWallet = deal.escrow.brandWallet as Address | null;
  const chainId = deal.escrow.chainId ?? info.chainId;
  const address = connection.status === "connected" ? (connection.address as Address) : null;
  const rightWallet = !!address && !!brandWallet && isAddressEqual(address, brandWallet);
  const wrongNetwork = !!address && connection.chainId !== chainId;
  const busy = step === "wallet" || step === "sent" || step === "reporting";

  /** POST …/cancel: the server confirms the cancel from the chain. */
  async function report(sent: Hex | null) {
    setStep("reporting");
    for (let attempt = 0; ; attempt++) {
      try {
        await apiFetch(`/api/deals/${deal.id}/cancel`, { body: sent ? { txHash: sent } : {} });
        await onChanged();
        setStep("idle");
        return;
      } catch (err) {
        // The node may lag a moment behind the receipt the wallet saw.
        if (err instanceof ApiError && err.code === "invalid_state" && attempt < 3 && sent) {
          await new Promise((r) => setTimeout(r, 1500));
          continue;
        }
        throw err;
      }
    }
  }

  async function cancel() {
    if (!address || !escrow || !brandWallet) return;
    setError(null);
    try {
      setStep("wallet");
      let sent: Hex | null = null;
      try {
        sent = await writeContract(config, {
          account: address,
          chainId,
          address: escrow,
          abi: milestoneEscrowAbi,
          functionName: "cancel",
          // The escrow keys the deal by the wallet that funded it (only it may cancel).
          args: [dealKey(brandWallet, deal.id)],
        });
      } catch (err) {
        // Cancelled already (an earlier try): the server only needs to see it.
        if (revertName(err) !== "DealIsCancelled") throw err;
      }
      if (sent) {
        setHash(sent);
        setStep("sent");
        const receipt = await waitForTransactionReceipt(config, { hash: sent, chainId });
        if (receipt.status !== "success") throw new Error("The cancel failed on-chain.");
      }
      await report(sent);
    } catch (err) {
      setError(chainErrorMessage(err, info.nativeCurrency.symbol));
      setStep("failed");
    }
  }

  return (
    <section className="card stack tight" data-testid="cancel-deal">
      <div className="spread">
        <span className="small">
          Nobody has taken this deal yet. You can cancel it and get{" "}
          <strong>{formatUsdc(deal.escrow.locked)}</strong> back from the escrow.
        </span>
        {step === "idle" && (
          <button type="button" className="btn small secondary" onClick={() => setStep("confirm")}>
            Cancel and refund
          </button>
        )}
      </div>
      {step !== "idle" && (
        <div className="confirm stack tight">
          <span>
            Your wallet calls <code>cancel</code> on the escrow{" "}
            {escrow && <AddressLink address={escrow} />}: {formatUsdc(deal.escrow.locked)} go back
            at once to {brandWallet ? <AddressLink address={brandWallet} /> : "the funding wallet"}{" "}
            (the wallet that funded it — only it can cancel). If a creator takes the deal first, the
            cancel fails and nothing moves.
          </span>
          <ConnectButton />
          {!address ? null : !rightWallet ? (
            <div className="alert warn small" role="alert">
              The connected wallet is not the one that funded this deal. Switch to{" "}
              {brandWallet ? <AddressLink address={brandWallet} /> : "it"} in your wallet.
            </div>
          ) : wrongNetwork ? (
            <div className="alert warn spread small" role="alert">
              <span>Your wallet is on another network.</span>
              <button
                type="button"
                className="btn small"
                onClick={() => switchChain.mutate({ chainId })}
              >
                Switch network
              </button>
            </div>
          ) : null}
          {step !== "confirm" && (
            <ol className="steps" aria-live="polite">
              <li
                className={
                  step === "wallet" || step === "sent" || step === "reporting"
                    ? "running"
                    : "failed"
                }
              >
                <span>
                  {step === "wallet"
                    ? "Confirm the cancel in your wallet…"
                    : step === "sent"
                      ? "Cancel sent — waiting for confirmation…"
                      : step === "reporting"
                        ? "Cancelled on-chain — updating the deal…"
                        : "The cancel did not go through"}
                </span>
                {hash && <TxLink hash={hash} />}
              </li>
            </ol>
          )}
          {error && (
            <div className="alert error small" role="alert">
              {error}
            </div>
          )}
          <div className="row">
            <button
              type="button"
              className="btn danger"
              onClick={cancel}
              disabled={busy || !rightWallet || wrongNetwork}
            >
              {busy ? "Cancelling…" : "Cancel the deal from my wallet"}
            </button>
            <button
              type="button"
              className="btn ghost"
              onClick={() => {
                setStep("idle");
                setError(null);
              }}
              disabled={busy}
            >
              Keep it
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function Reclaim({ deal, onChanged }: { deal: DealJson; onChanged(): Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function reclaim() {
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/api/deals/${deal.id}/refund`, { body: {} });
      await onChanged();
    } catch (err) {
      setError(chainErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="alert warn stack tight" data-testid="reclaim">
      <span>
        The deadline ({formatDate(deal.escrow.deadline)}) and the 7-day grace period have passed.{" "}
        <strong>{formatUsdc(deal.escrow.locked)}</strong> is still locked for milestones that were
        never paid; it can only go back to you.
      </span>
      <div className="row">
        <button type="button" className="btn" onClick={reclaim} disabled={busy}>
          {busy ? "Reclaiming…" : "Reclaim expired milestones"}
        </button>
      </div>
      {error && (
        <div className="alert error small" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
