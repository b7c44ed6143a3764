import type { Metadata } from "next";
import { CreatorDashboard } from "@/components/deals/creator-dashboard";
import { DemoGate } from "@/components/demo/demo-gate";

export const metadata: Metadata = { title: "Your work" };

// /creator – the creator's dashboard: my deals and open deals
export default function CreatorPage() {
  return (
    <DemoGate>
      <CreatorDashboard />
    </DemoGate>
  );
}
