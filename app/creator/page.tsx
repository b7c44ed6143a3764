import type { Metadata } from "next";
import { CreatorDashboard } from "@/components/deals/creator-dashboard";
import { firstPage } from "@/components/deals/list-page";
import { DemoGate } from "@/components/demo/demo-gate";
import { RoleSwitchPrompt } from "@/components/role-switch-prompt";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { walletBootstrap } from "@/components/wallet/wallet-bootstrap";
import { currentUser } from "@/lib/auth/server-user";
import { toUserJson } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { listDeals } from "@/lib/deals/deals";

export const metadata: Metadata = {
  title: "Your work",
  description: "Your deals as a creator, what to do next on each, and open deals to take.",
};

// /creator – the creator's dashboard, rendered on the server: my deals and open deals.
export default function CreatorPage() {
  return (
    <DemoGate>
      <CreatorContent />
    </DemoGate>
  );
}

async function CreatorContent() {
  const user = await currentUser();
  if (!user) return <SignInPrompt what="the creator dashboard" next="/creator" />;
  if (user.profileType !== "creator")
    return (
      <RoleSwitchPrompt current={user.profileType} needs="creator" what="the creator dashboard" />
    );
  const db = await getDb();
  const [mine, open, wallet] = await Promise.all([
    listDeals(db, user),
    listDeals(db, user, { open: true }),
    walletBootstrap(),
  ]);
  return (
    <CreatorDashboard
      user={toUserJson(user)}
      mine={firstPage(mine)}
      open={firstPage(open)}
      wallet={wallet}
    />
  );
}
