import type { Metadata } from "next";
import { BrandDashboard } from "@/components/deals/brand-dashboard";
import { firstPage } from "@/components/deals/list-page";
import { DemoGate } from "@/components/demo/demo-gate";
import { RoleSwitchPrompt } from "@/components/role-switch-prompt";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { currentUser } from "@/lib/auth/server-user";
import { toUserJson } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { listDeals } from "@/lib/deals/deals";

export const metadata: Metadata = {
  title: "Your deals",
  description: "Your deals as a brand: funding, creators, milestones and payments.",
};

// /brand – the brand's dashboard, rendered on the server with the caller's deals.
export default function BrandPage() {
  return (
    <DemoGate>
      <BrandContent />
    </DemoGate>
  );
}

async function BrandContent() {
  const user = await currentUser();
  if (!user) return <SignInPrompt what="the brand dashboard" next="/brand" />;
  if (user.profileType !== "organization")
    return (
      <RoleSwitchPrompt
        current={user.profileType}
        needs="organization"
        what="the brand dashboard"
      />
    );
  const initial = firstPage(await listDeals(await getDb(), user));
  return <BrandDashboard user={toUserJson(user)} initial={initial} />;
}
