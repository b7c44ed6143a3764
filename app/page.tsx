import Link from "next/link";

export default function HomePage() {
  return (
    <div className="stack">
      <section className="card stack">
        <h1>Get paid per milestone, verified by AI, settled in USDC</h1>
        <p className="muted">
          Brands post deals split into milestones with concrete requirements. Creators take a deal
          and submit each deliverable. An AI checks it against the brand&apos;s requirements, and
          the milestone pays out on-chain in proportion to the score.
        </p>
        <div className="row">
          <Link className="btn" href="/sign-in">
            Sign in
          </Link>
          <Link className="btn secondary" href="/docs">
            API reference
          </Link>
        </div>
      </section>
      <section className="grid">
        <div className="card">
          <h3>1. Brands create deals</h3>
          <p className="muted small">
            Milestones with an amount in USDC, hashtags, mentions, links and criteria.
          </p>
        </div>
        <div className="card">
          <h3>2. Creators deliver</h3>
          <p className="muted small">Accept an open deal and submit the post for each milestone.</p>
        </div>
        <div className="card">
          <h3>3. AI verifies, USDC settles</h3>
          <p className="muted small">
            Approved work above the brand&apos;s minimum score pays amount × score, exactly once.
          </p>
        </div>
      </section>
    </div>
  );
}
