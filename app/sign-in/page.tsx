import type { Metadata } from "next";
import { type SignInMode, SignInPanel } from "@/components/sign-in-panel";
import { identityConfig, usesDevIdentityProvider } from "@/lib/auth/identity";
import { safeNextPath } from "@/lib/auth/safe-next";

export const metadata: Metadata = { title: "Sign in" };
// Which provider signs users in is runtime configuration, not a build-time fact.
export const dynamic = "force-dynamic";

function signInMode(): SignInMode {
  try {
    return usesDevIdentityProvider(identityConfig()) ? "dev" : "external";
  } catch {
    return "unconfigured";
  }
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  return <SignInPanel mode={signInMode()} next={safeNextPath(next)} />;
}
