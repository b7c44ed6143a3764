import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DealPage } from "@/components/deals/deal-page";
import { DemoGate } from "@/components/demo/demo-gate";
import { currentUser } from "@/lib/auth/server-user";
import { getDb } from "@/lib/db";
import { dealPageExists } from "@/lib/deals/deals";

export const metadata: Metadata = { title: "Deal" };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// /deals/:id – one deal, for its brand, its creator, or a creator who may take it; a deal
// that does not exist (or that the caller may not see) is a real 404.
export default async function DealRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!uuid.test(id) || !(await dealPageExists(await getDb(), await currentUser(), id))) notFound();
  return (
    <DemoGate>
      <DealPage id={id} />
    </DemoGate>
  );
}
