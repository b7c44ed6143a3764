import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { DEMO_COOKIE, demoGateEnabled, isValidUnlockToken } from "@/lib/demo/unlock";
import { DemoUnlockForm } from "./demo-unlock-form";

// Server component: when the deployment has a demo passphrase, pages wrapped in it ask for
// the passphrase first; the unlock cookie (signed, httpOnly) lets them through afterwards.
// Without a passphrase there is no gate. The API checks nothing here: this gates pages only.
export async function DemoGate({ children }: { children: ReactNode }) {
  if (!demoGateEnabled()) return <>{children}</>;
  const token = (await cookies()).get(DEMO_COOKIE)?.value;
  if (isValidUnlockToken(token)) return <>{children}</>;
  return <DemoUnlockForm />;
}
