import type { Metadata } from "next";
import { SessionGate } from "@/components/deals/session-gate";
import { DisplayNameForm } from "@/components/profile/display-name-form";
import { HandlesPanel } from "@/components/profile/handles-panel";

export const metadata: Metadata = { title: "Profile" };

// /profile – the signed-in user's display name and platform handles
export default function ProfilePage() {
  return (
    <SessionGate what="your profile">
      <div className="stack">
        <DisplayNameForm />
        <HandlesPanel />
      </div>
    </SessionGate>
  );
}
