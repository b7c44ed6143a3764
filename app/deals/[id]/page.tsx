import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DealPage } from "@/components/deals/deal-page";
import { DemoGate } from "@/components/demo/demo-gate";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { currentUser } from "@/lib/auth/server-user";
import { toUserJson } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { dealPageExists, getDeal } from "@/lib/deals/deals";
import { AppError } from "@/lib/errors";

export const metadata: Metadata = { title: "Deal" };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// /deals/:id – one deal, for its brand, its creator, or a creator who may take it, rendered
// on the server with the deal (the first HTML holds it). A deal that does not exist, or that
// the caller may not see, is a real 404; a visitor signed out is asked to sign in.
export default async function DealRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!uuid.test(id)) notFound();
  const [db, user] = await Promise.all([getDb(), currentUser()]);
  if (!user) {
    if (!(await dealPageExists(db, null, id))) notFound();
    return (
      <DemoGate>
        <SignInPrompt what="this deal" next={`/deals/${id}`} />
      </DemoGate>
    );
  }
  const deal = await getDeal(db, user, id).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  if (!deal) notFound();
  return (
    <DemoGate>
      <DealPage initial={deal} user={toUserJson(user)} />
    </DemoGate>
  );
}
