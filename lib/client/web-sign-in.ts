// The browser's side of sign-in through next-auth's routes under /auth (lib/auth/web-sign-in.ts):
// its CSRF token, then a form post that answers JSON `{ url }`: where to go next.

async function csrfToken(): Promise<string> {
  const res = await fetch("/auth/csrf", { credentials: "same-origin", cache: "no-store" });
  if (!res.ok) throw new Error(`The server answered ${res.status}.`);
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

/**
 * POSTs `fields` to /auth/<path> with next-auth's CSRF token and json=true; resolves with the
 * URL next-auth answers (the provider's authorization page, /auth/verify-request for an
 * e-mail link, or the page to land on), or throws with `?error=`'s code as the message.
 */
export async function postToAuth(path: string, fields: Record<string, string>): Promise<URL> {
  const res = await fetch(`/auth/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, csrfToken: await csrfToken(), json: "true" }),
  });
  const { url } = (await res.json().catch(() => ({}))) as { url?: string };
  if (!res.ok || !url) throw new SignInError("unavailable");
  const next = new URL(url, window.location.href);
  const code = next.searchParams.get("error");
  if (code) throw new SignInError(code);
  return next;
}

export class SignInError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = "SignInError";
  }
}
