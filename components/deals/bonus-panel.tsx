"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Suspense, useId, useState } from "react";
import { parseUnits } from "viem";
import { apiFetch } from "@/lib/client/api";
import { ActionError, ConfirmBox } from "./confirmed-action";
import { TxLink } from "./escrow-views";
import { type DealJson, formatUsdc } from "./format";
import { FundingPanel } from "./funding-panel";
import { useDealPageSeed, useSeed } from "./page-seed";
import { asApiError } from "./queries";
import type { RelayStatus } from "./settle-panel";

// Bonuses on the deal page (issue 24, item 5; lib/settle/bonuses.ts). After a milestone is
// paid the brand may send the creator a bonus with a message: the form asks, a confirmation
// says what will move, then the bonus is funded exactly like a deal (the same funding panel,
// under the bonus's own escrow deal: by transfer to its deposit address or from a wallet) and
// released to the creator through the escrow. Both parties see the list: amount, message (as
// text), where it stands, and the release's transaction.

type Bonus = {
  id: string;
  dealId: string;
  amount: string;
  amountUnits: string;
  message: string;
  status: "awaiting_funding" | "funded" | "paying" | "paid" | "cancelled" | "refunded";
  txHash: string | null;
  createdAt: string;
};

const MESSAGE_MAX = 1000;

const statusText: Record<Bonus["status"], string> = {
  awaiting_funding: "Waiting for funding",
  funded: "Funded — releasing to the creator",
  paying: "Being paid",
  paid: "Paid",
  cancelled: "Cancelled",
  refunded: "Returned to the brand",
};

const bonusesKey = (dealId: string) => ["bonuses", dealId];

export function BonusPanel(props: {
  deal: DealJson;
  viewer: "brand" | "creator";
  relay: RelayStatus | null;
  onChanged(): Promise<unknown>;
}) {
  // The list streams in with the page (its seed); until then nothing is shown, as before it loaded.
  return (
    <Suspense fallback={null}>
      <Bonuses {...props} />
    </Suspense>
  );
}

function Bonuses({
  deal,
  viewer,
  relay,
  onChanged,
}: {
  deal: DealJson;
  viewer: "brand" | "creator";
  relay: RelayStatus | null;
  onChanged(): Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const seeded = useSeed(useDealPageSeed().bonuses);
  const [seed] = useState(() => seeded);
  const list = useQuery({
    queryKey: bonusesKey(deal.id),
    initialData: seed ?? undefined,
    staleTime: 10_000,
    queryFn: ({ signal }) =>
      apiFetch<{ bonuses: Bonus[] }>(`/api/deals/${deal.id}/bonuses?limit=100`, { signal }),
    refetchInterval: (q) =>
      q.state.data?.bonuses.some((b) => b.status === "funded" || b.status === "paying")
        ? 3000
        : false,
  });
  const reload = async () => {
    // A bonus's events are the deal's (bonus.funded, bonus.paid): the timeline reads them again.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: bonusesKey(deal.id) }),
      queryClient.invalidateQueries({ queryKey: ["deal-events", deal.id] }),
    ]);
    await onChanged();
  };
  const anyPaid = deal.milestones.some((m) => m.status === "paid");
  const bonuses = list.data?.bonuses ?? [];
  if (viewer === "creator" && bonuses.length === 0) return null;
  if (viewer === "brand" && !anyPaid && bonuses.length === 0) return null;
  const open = bonuses.find((b) => b.status === "awaiting_funding");

  return (
    <section className="card stack" aria-labelledby="bonus-title" data-testid="bonuses">
      <h2 id="bonus-title">Bonuses</h2>
      {list.isError && (
        <div className="alert error small" role="alert">
          Could not load the bonuses: {asApiError(list.error).message}{" "}
          <button type="button" className="btn small ghost" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      )}
      {list.isPending && <p className="muted small">Loading the bonuses…</p>}
      {bonuses.length > 0 && (
        <ul className="stack tight" aria-label="Bonuses sent">
          {bonuses.map((b) => (
            <li key={b.id} className="stack tight" data-testid="bonus" data-status={b.status}>
              <div className="spread">
                <strong data-testid="bonus-amount">{formatUsdc(b.amount)}</strong>
                <span className="badge" data-testid="bonus-status">
                  {statusText[b.status]}
                </span>
              </div>
              <p className="pre-line message-body" data-testid="bonus-message">
                {b.message}
              </p>
              {b.txHash && <TxLink hash={b.txHash} testId="bonus-tx" />}
            </li>
          ))}
        </ul>
      )}
      {viewer === "brand" &&
        (open ? (
          <FundBonus deal={deal} bonus={open} relay={relay} onDone={reload} />
        ) : (
          anyPaid && <SendBonusForm deal={deal} onCreated={reload} />
        ))}
    </section>
  );
}

/** The amount in USDC ("12.5") as base units, or null when it is not a positive amount. */
function unitsOf(amount: string): bigint | null {
  const v = amount.trim();
  if (!/^\d+(\.\d{1,6})?$/.test(v)) return null;
  const units = parseUnits(v, 6);
  return units > 0n ? units : null;
}

function SendBonusForm({ deal, onCreated }: { deal: DealJson; onCreated(): Promise<unknown> }) {
  const id = useId();
  const [amount, setAmount] = useState("");
  const [message, setMessage] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { amount: string; message: string }) =>
      apiFetch<{ bonus: Bonus }>(`/api/deals/${deal.id}/bonuses`, {
        method: "POST",
        body,
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }),
    onSuccess: async () => {
      setConfirming(false);
      setAmount("");
      setMessage("");
      await onCreated();
    },
    onError: () => setConfirming(false),
  });
  const units = unitsOf(amount);
  const creator = deal.creator?.name ?? "the creator";

  function review() {
    create.reset();
    if (units === null) return setInvalid("Enter an amount in USDC, such as 5 or 12.50.");
    if (!message.trim()) return setInvalid("Write a message to go with it.");
    setInvalid(null);
    setConfirming(true);
  }

  return (
    <div className="stack tight" data-testid="bonus-form">
      <h3>Send a bonus</h3>
      <p className="muted small">
        Reward great work beyond the milestones. It is paid through the escrow like a milestone; it
        never changes anyone's reputation.
      </p>
      <label htmlFor={`${id}-amount`}>Amount (USDC)</label>
      <input
        id={`${id}-amount`}
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        aria-invalid={invalid?.startsWith("Enter") ? true : undefined}
        disabled={confirming || create.isPending}
      />
      <label htmlFor={`${id}-message`}>Message to {creator}</label>
      <textarea
        id={`${id}-message`}
        value={message}
        maxLength={MESSAGE_MAX}
        rows={3}
        onChange={(e) => setMessage(e.target.value)}
        aria-describedby={`${id}-count`}
        disabled={confirming || create.isPending}
      />
      <span id={`${id}-count`} className="muted small">
        {message.length} / {MESSAGE_MAX}
      </span>
      {invalid && (
        <div className="alert error small" role="alert">
          {invalid}
        </div>
      )}
      {confirming && units !== null ? (
        <ConfirmBox
          confirmLabel="Yes, send the bonus"
          busyLabel="Preparing the bonus…"
          busy={create.isPending}
          onConfirm={() => create.mutate({ amount: units.toString(), message: message.trim() })}
          onBack={() => setConfirming(false)}
          testId="confirm-bonus"
        >
          <p>
            Send <strong>{formatUsdc(amount.trim())}</strong> to {creator}? You fund it next (by
            transfer or from your wallet); the escrow then pays it to the creator's wallet. Once
            paid, it cannot be taken back.
          </p>
        </ConfirmBox>
      ) : (
        <div className="row">
          <button type="button" className="btn" onClick={review} data-testid="send-bonus">
            Send a bonus
          </button>
        </div>
      )}
      <ActionError error={create.error ? asApiError(create.error) : null} />
    </div>
  );
}

/** A bonus waiting for its funding: the deal funding panel under the bonus's escrow deal. */
function FundBonus({
  deal,
  bonus,
  relay,
  onDone,
}: {
  deal: DealJson;
  bonus: Bonus;
  relay: RelayStatus | null;
  onDone(): Promise<unknown>;
}) {
  const escrowDeal = useQuery({
    queryKey: ["deal", bonus.id],
    queryFn: ({ signal }) => apiFetch<{ deal: DealJson }>(`/api/deals/${bonus.id}`, { signal }),
  });
  const release = useMutation({
    mutationFn: () =>
      apiFetch<{ bonus: Bonus }>(`/api/deals/${deal.id}/bonuses/${bonus.id}/release`, {
        method: "POST",
      }),
    onSettled: () => onDone(),
  });
  return (
    <div className="stack tight" data-testid="bonus-funding">
      <h3>Fund the bonus of {formatUsdc(bonus.amount)}</h3>
      <ol className="small" aria-label="Progress">
        <li>Confirmed ✓</li>
        <li aria-current={release.isPending ? undefined : "step"}>
          Fund it: send {formatUsdc(bonus.amount)} to the escrow, by transfer or from your wallet
        </li>
        <li aria-current={release.isPending ? "step" : undefined}>
          The escrow pays it to the creator
        </li>
      </ol>
      {escrowDeal.data ? (
        <FundingPanel
          deal={escrowDeal.data.deal}
          relay={relay}
          onFunded={async () => {
            await release.mutateAsync().catch(() => {});
          }}
        />
      ) : escrowDeal.isError ? (
        <div className="alert error small" role="alert">
          {asApiError(escrowDeal.error).message}
        </div>
      ) : (
        <div className="skeleton" style={{ height: "4rem" }} aria-busy="true" />
      )}
      <div className="row">
        <button
          type="button"
          className="btn"
          disabled={release.isPending}
          onClick={() => release.mutate()}
          data-testid="release-bonus"
        >
          {release.isPending ? "Paying the creator…" : "I have paid — send it to the creator"}
        </button>
      </div>
      <ActionError error={release.error ? asApiError(release.error) : null} />
    </div>
  );
}
