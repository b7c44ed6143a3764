"use client";

import { type ReactNode, Suspense, useEffect, useRef } from "react";
import { type Address, isAddressEqual } from "viem";
import { type DealJson, formatUnitsUsdc } from "./format";
import { FundingDetails } from "./funding/funding-details";
import { PayByTransfer } from "./funding/pay-by-transfer";
import { PaymentTabs } from "./funding/payment-tabs";
import { Split, totalUnits } from "./funding/split";
import type { FundedNotice, FundingJson } from "./funding/types";
import { WalletPayment } from "./funding/wallet-payment";
import { useDealPageSeed, useSeed } from "./page-seed";
import { asApiError, useFunding } from "./queries";
import type { RelayStatus } from "./settle-panel";

// The brand funds an unfunded deal: its budget goes into the escrow contract, after which
// creators can see and take it. Two ways, as tabs: "Pay by transfer" (the default: send USDC
// from any wallet or exchange to the deal's deposit address; the page follows the deposit) and
// "Pay from a connected wallet" (approve + fund, or a signature the service submits). The
// pieces live in ./funding/; the funding state is one query (./queries.ts), polled while a
// deposit is on its way, and every action is a mutation. Its first reading streams in with the
// page (app/deals/[id]/load-deal-seed.ts, from the database alone).

export type { FundedNotice } from "./funding/types";

export function FundingPanel(props: {
  deal: DealJson;
  relay: RelayStatus | null;
  onFunded(notice: FundedNotice): Promise<void>;
  /** The card on-ramp's URL template (server configuration); null: no "Buy USDC" link. */
  onrampTemplate?: string | null;
}) {
  // The terms stream in with the page (its seed); until then the card shows a skeleton.
  return (
    <Suspense
      fallback={
        <FundingCard deal={props.deal} terms={undefined}>
          <TermsSkeleton />
        </FundingCard>
      }
    >
      <Funding {...props} />
    </Suspense>
  );
}

function Funding({
  deal,
  relay,
  onFunded,
  onrampTemplate = null,
}: {
  deal: DealJson;
  relay: RelayStatus | null;
  onFunded(notice: FundedNotice): Promise<void>;
  onrampTemplate?: string | null;
}) {
  const funding = useFunding(deal, useSeed(useDealPageSeed().funding));
  const terms = funding.data?.funding;
  useDepositFunded(terms, funding.dataUpdatedAt, onFunded);

  return (
    <FundingCard deal={deal} terms={terms}>
      {funding.error ? (
        <div className="alert error" role="alert">
          The funding terms could not be loaded: {asApiError(funding.error).message}{" "}
          <button
            type="button"
            className="btn small secondary"
            onClick={() => void funding.refetch()}
          >
            Try again
          </button>
        </div>
      ) : !terms ? (
        <TermsSkeleton />
      ) : (
        <>
          <FundingMethods
            deal={deal}
            terms={terms}
            relay={relay}
            onFunded={onFunded}
            onrampTemplate={onrampTemplate}
          />
          <FundingDetails terms={terms} />
        </>
      )}
    </FundingCard>
  );
}

const TermsSkeleton = () => (
  <div className="skeleton" style={{ height: "6rem" }} aria-busy="true" />
);

function FundingCard({
  deal,
  terms,
  children,
}: {
  deal: DealJson;
  terms: FundingJson | undefined;
  children: ReactNode;
}) {
  return (
    <section
      className="card stack funding"
      data-testid="funding-panel"
      aria-labelledby="fund-title"
    >
      <div className="spread">
        <h2 id="fund-title">Fund the escrow</h2>
        <span className="budget" data-testid="funding-total">
          {formatUnitsUsdc(totalUnits(deal, terms))}
        </span>
      </div>
      <p className="muted small">
        Creators see this deal once its budget is locked in the escrow contract. The escrow pays
        each milestone to the creator when it passes the AI check, and sends everything else back to
        you.
      </p>
      <Split deal={deal} terms={terms} />
      {children}
    </section>
  );
}

function FundingMethods({
  deal,
  terms,
  relay,
  onFunded,
  onrampTemplate,
}: {
  deal: DealJson;
  terms: FundingJson;
  relay: RelayStatus | null;
  onFunded(notice: FundedNotice): Promise<void>;
  onrampTemplate: string | null;
}) {
  const wallet = <WalletPayment deal={deal} terms={terms} relay={relay} onFunded={onFunded} />;
  // A deployment without deposit addresses (no `deposit` in the funding state) offers the
  // wallet only.
  if (terms.deposit === undefined) return wallet;
  return (
    <PaymentTabs
      label="How to pay"
      tabs={[
        {
          id: "transfer",
          label: "Pay by transfer",
          content: (
            <PayByTransfer
              dealId={deal.id}
              totalUnits={terms.totalUnits}
              deposit={terms.deposit}
              onrampTemplate={onrampTemplate}
              onFunded={onFunded}
            />
          ),
        },
        { id: "wallet", label: "Pay from a connected wallet", content: wallet },
      ]}
    />
  );
}

/**
 * The deposit funded the deal (the watcher swept it into the escrow): tell the page, which
 * reads the deal again and shows it open. Once per reading of the funding state that says so
 * (it is polled until the deal opens and this panel goes away).
 */
function useDepositFunded(
  terms: FundingJson | undefined,
  readAt: number,
  onFunded: (notice: FundedNotice) => Promise<void>,
) {
  const latest = useRef(onFunded);
  latest.current = onFunded;
  const handled = useRef(0);
  const total = terms?.deposit?.status === "funded" ? terms.total : null;
  useEffect(() => {
    if (!total || handled.current === readAt) return;
    handled.current = readAt;
    void latest.current({ total, txHash: null });
  }, [total, readAt]);
}

/** Whether `a` is the same address as `b` (either may be missing). */
export const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && isAddressEqual(a as Address, b as Address);
