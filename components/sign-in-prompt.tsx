import Link from "next/link";

// What a signed-out visitor sees on a page that needs an account (rendered on the server).
export function SignInPrompt({ what, next }: { what: string; next: string }) {
  return (
    <section className="card stack narrow" data-testid="sign-in-prompt">
      <h1>Sign in to see {what}</h1>
      <p className="muted">
        Milestone keeps your deals private to you and the other party. Sign in (or create an
        account) to continue.
      </p>
      <div className="row">
        <Link className="btn" href={`/sign-in?next=${encodeURIComponent(next)}`}>
          Sign in
        </Link>
        <Link className="btn ghost" href="/">
          What is Milestone?
        </Link>
      </div>
    </section>
  );
}
