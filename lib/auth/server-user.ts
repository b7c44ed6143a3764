import "server-only";
import { cookies } from "next/headers";
import type { User } from "@/db/schema";
import { optionalUser } from "@/lib/auth/caller";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { appUrl } from "@/lib/env";

// The signed-in user for a server component (a page rendered on the server), from the
// session cookie, or null when signed out. The cookie is checked exactly as the API checks
// it (lib/auth/caller.ts: signature, expiry, the user's session version), by handing it to
// optionalUser as a read request would carry it; a stale or forged cookie is "signed out".
// Reading cookies makes the calling page dynamic, as a per-user page must be.
export async function currentUser(): Promise<User | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const req = new Request(`${appUrl()}/`, {
    method: "GET",
    headers: { cookie: `${SESSION_COOKIE}=${token}` },
  });
  return optionalUser(req);
}
