// Where to send a user after signing in (`/sign-in?next=…`): only a path on this app's own
// origin. Browsers forgive a lot in a URL: they read `\` as `/`, drop tabs and newlines, and
// treat `//host` as another site, so `/\evil.example` or `/\t/evil.example` would leave the app.
// The rule: no scheme, no backslash, no control character or whitespace anywhere (raw or
// percent-encoded), and what the URL parser makes of it must stay on our origin and must not
// itself start with `//`.

const PROBE_ORIGIN = "https://app.invalid";

/** The same-origin path to go to after signing in, or null when `value` is not one. */
export function safeNextPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  if (unsafeCharacters(value)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  if (unsafeCharacters(decoded) || decoded.startsWith("//")) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` parses to the path `//evil.example`, which is another site again.
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  return path;
}

function unsafeCharacters(s: string): boolean {
  // Backslashes, C0 controls, DEL, and any whitespace (incl. Unicode spaces browsers may strip).
  if (s.includes("\\") || /\s/.test(s)) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
