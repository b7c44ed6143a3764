import type { Metadata } from "next";
import { CreateDeal } from "@/components/deals/create-deal-form";
import { DemoGate } from "@/components/demo/demo-gate";

export const metadata: Metadata = { title: "Create a deal" };

// /brand/deals/new – a brand creates a deal with milestones
export default function NewDealPage() {
  return (
    <DemoGate>
      <CreateDeal />
    </DemoGate>
  );
}
