import type { Metadata } from "next";
import { DealPage } from "@/components/deals/deal-page";
import { DemoGate } from "@/components/demo/demo-gate";

export const metadata: Metadata = { title: "Deal" };

// /deals/:id – one deal, for its brand, its creator, or a creator who may take it
export default async function DealRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <DemoGate>
      <DealPage id={id} />
    </DemoGate>
  );
}
