import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DealForm } from "@/components/deals/create-deal-form";
import { cancellable as editable } from "@/components/deals/format";
import { DemoGate } from "@/components/demo/demo-gate";
import { loadDealPage } from "../load-deal-page";

export const metadata: Metadata = { title: "Edit the deal" };

// /deals/:id/edit – the brand edits a deal nobody has taken, in the create form, rendered
// on the server with the deal. Anyone but the brand gets a real 404 (a visitor signed out
// is asked to sign in, as on the deal page); a deal that can no longer change says why.
// No loading.tsx here: its fallback would start the response (status 200) before
// notFound() runs; the "Edit deal" link shows the wait instead (LinkPendingLabel).
export default async function EditDealRoute({ params }: { params: Promise<{ id: string }> }) {
  const page = await loadDealPage(params, (id) => `/deals/${id}/edit`);
  if ("prompt" in page) return page.prompt;
  const { id, user, deal } = page;
  if (deal.brandId !== user.id) notFound();
  return (
    <DemoGate>
      {editable(deal) ? (
        <DealForm deal={deal} />
      ) : (
        <section className="card stack narrow" data-testid="not-editable">
          <h1>This deal can no longer be edited</h1>
          <p className="muted">
            {deal.creatorId
              ? "A creator has taken it, so its terms are fixed."
              : `It is ${deal.status}.`}{" "}
            Only a deal nobody has taken can change.
          </p>
          <div className="row">
            <Link className="btn" href={`/deals/${id}`}>
              Back to the deal
            </Link>
          </div>
        </section>
      )}
    </DemoGate>
  );
}
