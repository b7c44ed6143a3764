import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

// Any unknown path, and any page that calls notFound(): answered with status 404.
export default function NotFound() {
  return (
    <section className="card stack narrow" data-testid="not-found">
      <h1>Page not found</h1>
      <p className="muted">
        There is nothing at this address. The link may be old, or the deal may have been removed or
        be visible only to the people in it.
      </p>
      <div className="row">
        <Link className="btn" href="/">
          Go to the home page
        </Link>
        <Link className="btn secondary" href="/sign-in">
          Sign in
        </Link>
      </div>
    </section>
  );
}
