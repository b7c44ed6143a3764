import Link from "next/link";
import { AccountMenu } from "@/components/account-menu";
import { UnreadBadge } from "@/components/notifications/unread-badge";

// The top bar. The signed-in user, role switch and sign-out live in <AccountMenu>.
export function SiteHeader() {
  return (
    <header className="header">
      <div className="container">
        <Link href="/" className="logo">
          Mile<span>stone</span>
        </Link>
        <nav className="nav" aria-label="Main">
          <AccountMenu inbox={<UnreadBadge />} docs={<Link href="/docs">API docs</Link>} />
        </nav>
      </div>
    </header>
  );
}
