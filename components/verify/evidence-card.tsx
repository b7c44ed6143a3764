"use client";

import { Suspense, useEffect, useState } from "react";
import { useDealPageSeed, useSeed } from "@/components/deals/page-seed";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { evidenceSeedKey } from "@/lib/deals/page-seed";
import type { EvidenceJson } from "@/lib/verify/evidence/read";

// What the verifier read for a milestone's revision: the post as fetched from its platform,
// its author against the creator's declared handle (a mismatch shown plainly), or why the
// post could not be read. Self-contained: give it the milestone id (and the revision shown).

const PLATFORM: Record<string, string> = {
  youtube: "YouTube",
  tiktok: "TikTok",
  x: "X",
  instagram: "Instagram",
  sandbox: "Sandbox",
  web: "Web page",
};

export function EvidenceCard(props: { milestoneId: string; revision?: number }) {
  return (
    <Suspense fallback={<div className="skeleton" style={{ height: "4rem" }} aria-busy="true" />}>
      <Evidence {...props} />
    </Suspense>
  );
}

function Evidence({ milestoneId, revision }: { milestoneId: string; revision?: number }) {
  // Read with the page on the server, when this revision's was (the deal page's seed,
  // streamed: this waits for it).
  const seeded = useSeed(useDealPageSeed().evidence);
  const seed =
    revision === undefined ? undefined : seeded?.[evidenceSeedKey(milestoneId, revision)];
  const [items, setItems] = useState<EvidenceJson[] | null>(seed ?? null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (seed) {
      setItems(seed);
      return;
    }
    const ctl = new AbortController();
    // Newest first: the latest revision's evidence, or exactly the one asked for.
    const query = revision === undefined ? "limit=1" : `revision=${revision}`;
    apiFetch<{ evidence: EvidenceJson[] }>(`/api/milestones/${milestoneId}/evidence?${query}`, {
      signal: ctl.signal,
    })
      .then((r) => setItems(r.evidence))
      .catch((err) => {
        if (!ctl.signal.aborted) setError(errorMessage(err));
      });
    return () => ctl.abort();
  }, [milestoneId, revision, seed]);

  if (error) return <p className="muted small">Evidence: {error}</p>;
  if (!items) return null;
  const e = items[0];
  if (!e)
    return (
      <p className="muted small" data-testid="evidence-none">
        The post has not been read yet: it is read when the deliverable is verified.
      </p>
    );
  const where = PLATFORM[e.platform] ?? e.platform;

  if (e.status !== "ok")
    return (
      <section className="card stack" data-testid="evidence-card" data-status={e.status}>
        <h3>Evidence · {where}</h3>
        <div className="alert error" role="alert" data-testid="evidence-unreadable">
          The post could not be read ({e.status}): {e.error}. It is not approved automatically; the
          brand decides.
        </div>
        <p className="muted small mono break">{e.url}</p>
      </section>
    );

  return (
    <section className="card stack" data-testid="evidence-card" data-status="ok">
      <div className="spread">
        <h3>Evidence · {where}</h3>
        <span className="muted small">read {e.fetchedAt.slice(0, 16).replace("T", " ")} UTC</span>
      </div>
      <div data-testid="evidence-author">
        Posted by <strong className="mono">@{e.authorHandle ?? "unknown"}</strong>
        {e.authorMatches ? (
          <span className="ok-text"> · the creator&apos;s declared {where} handle</span>
        ) : (
          <span className="bad-text" role="alert">
            {" "}
            ·{" "}
            {!e.authorHandle
              ? `${where} does not name the author: authorship is not confirmed`
              : e.platform === "web"
                ? "a web page is not a platform account: authorship is not confirmed"
                : e.declaredHandle
                  ? `not the creator's declared ${where} handle (@${e.declaredHandle})`
                  : `the creator has declared no ${where} handle`}
          </span>
        )}
      </div>
      <blockquote className="quote pre-line" data-testid="evidence-caption">
        {e.caption || "(no caption)"}
      </blockquote>
      <p className="muted small">
        <a className="mono break" href={e.canonicalUrl ?? e.url} target="_blank" rel="noreferrer">
          {e.canonicalUrl ?? e.url}
        </a>
        {e.publishedAt ? ` · published ${e.publishedAt.slice(0, 10)}` : ""}
        {e.mediaType ? ` · ${e.mediaType}` : ""}
      </p>
      <p className="muted small mono break" title="keccak256 of the canonical evidence record">
        content hash {e.contentHash}
      </p>
    </section>
  );
}
