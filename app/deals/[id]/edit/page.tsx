import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DealForm } from "@/components/deals/create-deal-form";
import { cancellable as editable } from "@/components/deals/format";
import { DemoGate } from "@/components/demo/demo-gate";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { currentUser } from "@/lib/auth/server-user";
import { getDb } from "@/lib/db";
import { dealPageExists, getDeal } from "@/lib/deals/deals";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Edit the deal" };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// /deals/:id/edit – the brand edits a deal nobody has taken, in the create form, rendered
// on the server with the deal. Anyone but the brand gets a real 404; a deal that can no
// longer change says why.
export default async function EditDealRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!uuid.test(id)) notFound();
  const [db, user] = await Promise.all([getDb(), currentUser()]);
  if (!user) {
    if (!(await dealPageExists(db, null, id))) notFound();
    return (
      <DemoGate>
        <SignInPrompt what="this deal" next={`/deals/${id}/edit`} />
      </DemoGate>
    );
  }
  const deal = await getDeal(db, user, id).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  if (!deal || deal.brandId !== user.id) notFound();
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
