import { randomUUID } from "node:crypto";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { POST as devIdTokenPOST } from "@/app/api/dev/id-token/route";
import type { ProfileType } from "@/db/schema";
import { SESSION_COOKIE } from "@/lib/auth/session";
import type { UserJson } from "@/lib/auth/users";
import { call } from "./http";

// Signs a user in through the real dev identity provider and session handlers, for tests
// that need an authenticated caller: `call(handler, { token })` or `{ cookie }`.

export { SESSION_COOKIE as SESSION_COOKIE_NAME } from "@/lib/auth/session";

export type TestSession = { user: UserJson; token: string; cookie: string; expiresAt: string };

export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID()}@example.test`;

export async function devIdToken(
  email: string,
  opts: { embeddedWallet?: boolean } = {},
): Promise<string> {
  const res = await call(devIdTokenPOST, { body: { email, ...opts } });
  if (res.status !== 200)
    throw new Error(`dev id-token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.idToken as string;
}

export async function signIn(
  opts: { email?: string; profileType?: ProfileType; embeddedWallet?: boolean } = {},
): Promise<TestSession> {
  const idToken = await devIdToken(opts.email ?? uniqueEmail(), {
    embeddedWallet: opts.embeddedWallet,
  });
  const res = await call(sessionPOST, { body: { idToken, profileType: opts.profileType } });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`);
  const { user, token, expiresAt } = res.body as {
    user: UserJson;
    token: string;
    expiresAt: string;
  };
  return { user, token, expiresAt, cookie: `${SESSION_COOKIE}=${token}` };
}

/** The value of a cookie set by a response (`Set-Cookie`), or undefined. */
export function setCookieValue(headers: Headers, name = SESSION_COOKIE): string | undefined {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair?.indexOf("=") ?? -1;
    if (pair && eq > 0 && pair.slice(0, eq) === name) return pair.slice(eq + 1);
  }
  return undefined;
}
