import type { Metadata } from "next";
import { type SignInMethods, SignInPanel } from "@/components/sign-in-panel";
import { safeNextPath } from "@/lib/auth/safe-next";
import { signInMethods } from "@/lib/auth/web-sign-in";
import { outboxPageShown } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };
// Which methods sign users in is runtime configuration, not a build-time fact.
export const dynamic = "force-dynamic";

function methods(): SignInMethods {
  const { oidc, email, siwe } = signInMethods();
  return {
    oidc: oidc ? { name: oidc.name } : null,
    email,
    siwe,
    outbox: email && outboxPageShown() ? "/dev/outbox" : null,
  };
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next, error } = await searchParams;
  return (
    <SignInPanel
      methods={methods()}
      next={safeNextPath(next)}
      error={typeof error === "string" ? error.slice(0, 64) : null}
    />
  );
}
