import type { Metadata } from "next";
import { Suspense } from "react";
import { SessionGate } from "@/components/deals/session-gate";
import { DisplayNameForm } from "@/components/profile/display-name-form";
import { HandlesPanel } from "@/components/profile/handles-panel";
import { SignInMethodsPanel } from "@/components/profile/sign-in-methods-panel";

export const metadata: Metadata = { title: "Profile" };

// /profile – the signed-in user's display name, platform handles and ways to sign in
export default function ProfilePage() {
  return (
    <SessionGate what="your profile">
      <div className="stack">
        <DisplayNameForm />
        <HandlesPanel />
        {/* useSearchParams (?linked / ?link_error after adding a way in) needs a boundary. */}
        <Suspense fallback={null}>
          <SignInMethodsPanel />
        </Suspense>
      </div>
    </SessionGate>
  );
}
