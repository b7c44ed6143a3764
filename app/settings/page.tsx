import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Settings" };

const sections = [
  {
    href: "/profile",
    title: "Profile",
    text: "Your display name and the platform handles your posts are checked against.",
  },
  {
    href: "/settings/keys",
    title: "API keys",
    text: "Keys for programs that call the API as you, each limited to its scopes.",
  },
  {
    href: "/settings/webhooks",
    title: "Webhooks",
    text: "Endpoints that receive your deals' events as signed requests, and their delivery logs.",
  },
] as const;

// /settings – where the account's pages are: profile, API keys, webhooks.
export default function SettingsPage() {
  return (
    <section className="stack" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <ul className="inbox-list">
        {sections.map((s) => (
          <li key={s.href} className="card stack">
            <h2>
              <Link href={s.href}>{s.title}</Link>
            </h2>
            <p className="muted">{s.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
