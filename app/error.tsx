"use client";

import Link from "next/link";
import { useEffect } from "react";

// Shown when a page fails to render on the server or in the browser. The server logs the
// details; the person sees what they can do about it, and a reference for support.
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <section className="card stack narrow" role="alert" data-testid="error-page">
      <h1>Something went wrong</h1>
      <p className="muted">
        This page could not be shown. Nothing you entered was lost on our side: try again, and if it
        keeps happening, come back in a few minutes.
      </p>
      {error.digest && <p className="small muted">Reference for support: {error.digest}</p>}
      <div className="row">
        <button type="button" className="btn" onClick={reset}>
          Try again
        </button>
        <Link className="btn secondary" href="/">
          Go to the home page
        </Link>
      </div>
    </section>
  );
}
