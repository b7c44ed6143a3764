"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useSession } from "@/components/session-provider";
import { errorMessage, type ProfileType, roleLabel } from "@/lib/client/api";

// A signed-in user on the other role's page: one click switches the role, then the page
// is rendered again on the server for the new role.
export function RoleSwitchPrompt({
  current,
  needs: role,
  what,
}: {
  current: ProfileType;
  needs: ProfileType;
  what: string;
}) {
  const { setRole } = useSession();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function switchRole() {
    setBusy(true);
    setError(null);
    try {
      await setRole(role);
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <section className="card stack narrow" data-testid="wrong-role">
      <h1>This is {what}</h1>
      <p className="muted">
        You are signed in as a <strong>{roleLabel(current).toLowerCase()}</strong>.{" "}
        {role === "organization"
          ? "Switch to the brand role to post deals and pay creators."
          : "Switch to the creator role to take deals and submit your work."}{" "}
        You can switch back at any time.
      </p>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn" onClick={switchRole} disabled={busy}>
          {busy ? "Switching…" : `Switch to ${roleLabel(role).toLowerCase()}`}
        </button>
      </div>
    </section>
  );
}
