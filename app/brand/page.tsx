import type { Metadata } from "next";
import { BrandDashboard } from "@/components/deals/brand-dashboard";
import { DemoGate } from "@/components/demo/demo-gate";

export const metadata: Metadata = { title: "Your deals" };

// /brand – the brand's dashboard
export default function BrandPage() {
  return (
    <DemoGate>
      <BrandDashboard />
    </DemoGate>
  );
}
