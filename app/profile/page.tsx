import type { Metadata } from "next";
import { SessionGate } from "@/components/deals/session-gate";
import { HandlesPanel } from "@/components/profile/handles-panel";

export const metadata: Metadata = { title: "Profile" };

// /profile – the signed-in user's platform handles
export default function ProfilePage() {
  return (
    <SessionGate what="your profile">
      <HandlesPanel />
    </SessionGate>
  );
}
