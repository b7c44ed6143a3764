"use client";

import { type DealJson, formatUnitsUsdc } from "../format";
import type { FundingJson } from "./types";

/** The milestones and what each locks, and the total (the deal's own figures until the terms load). */
export function Split({ deal, terms }: { deal: DealJson; terms: FundingJson | undefined }) {
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
          <td>{formatUnitsUsdc(totalUnits(deal, terms))}</td>
        </tr>
      </tfoot>
    </table>
  );
}

export const totalUnits = (deal: DealJson, terms: FundingJson | undefined) =>
  BigInt(terms?.totalUnits ?? Math.round(deal.budget * 1e6));
