import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SessionGate } from "@/components/deals/session-gate";
import { SandboxStudio } from "@/components/social/sandbox-studio";
import { sandboxSocialEnabled } from "@/lib/env";

export const metadata: Metadata = { title: "Sandbox social" };
// Whether it exists is runtime configuration, not a build-time fact (the root layout no
// longer makes every page dynamic).
export const dynamic = "force-dynamic";

// /social – publish posts on the built-in sandbox platform (embedded setup)
export default function SocialPage() {
  if (!sandboxSocialEnabled()) notFound();
  return (
    <SessionGate what="the sandbox platform">
      <SandboxStudio />
    </SessionGate>
  );
}
