"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";

// The sandbox platform's studio: publish a post (handle, caption, a media placeholder), copy
// its URL to submit as a deliverable, delete it. The verifier reads the post, not the form.

type Post = {
  id: string;
  url: string;
  handle: string;
  caption: string;
  mediaType: string;
  paidPartnership: boolean;
  createdAt: string;
};
type Handle = { platform: string; handle: string };

export function SandboxStudio() {
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [handle, setHandle] = useState("");
  const [fixedHandle, setFixedHandle] = useState<string | null>(null);
  const [caption, setCaption] = useState("");
  const [mediaType, setMediaType] = useState("video");
  const [paidPartnership, setPaidPartnership] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [published, setPublished] = useState<Post | null>(null);

  const load = useCallback(async () => {
    try {
      const [p, h] = await Promise.all([
        apiFetch<{ posts: Post[] }>("/api/social/posts?limit=50"),
        apiFetch<{ handles: Handle[] }>("/api/profile/handles"),
      ]);
      setPosts(p.posts);
      const mine = h.handles.find((x) => x.platform === "sandbox")?.handle ?? null;
      setFixedHandle(mine);
      if (mine) setHandle(mine);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function publish(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch<{ post: Post }>("/api/social/posts", {
        body: { handle, caption, mediaType, paidPartnership },
      });
      setPublished(res.post);
      setCaption("");
      await load();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: string) {
    setError(null);
    try {
      await apiFetch(`/api/social/posts/${id}`, { method: "DELETE" });
      if (published?.id === id) setPublished(null);
      await load();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="stack">
      <section className="card stack">
        <h1>Sandbox social</h1>
        <p className="muted">
          A stand-in for Instagram, TikTok and the rest while Milestone runs on its own. Publish a
          post here, then submit its URL as your deliverable: the verifier reads the published
          caption and author, not what you type in the submission form. Like on any platform, your
          posts count once you have verified your handle: publish a post containing the code shown
          on <a href="/profile">your profile</a>, then press Check now there.
        </p>
        <form className="stack" onSubmit={publish} data-testid="sandbox-publish">
          <label className="field">
            <span>Handle</span>
            <input
              value={handle}
              onChange={(e) => setHandle(e.target.value)}
              readOnly={fixedHandle !== null}
              placeholder="yourname"
              required
            />
            {fixedHandle ? (
              <span className="hint">
                Your sandbox handle (<Link href="/profile">profile</Link>).
              </span>
            ) : (
              <span className="hint">Your first post makes this your sandbox handle.</span>
            )}
          </label>
          <label className="field">
            <span>Caption</span>
            <textarea
              value={caption}
              onChange={(e) => setCaption(e.target.value)}
              rows={4}
              required
              placeholder="Launch day! #ad @brand https://brand.example/launch"
            />
          </label>
          <label className="field">
            <span>Media</span>
            <select value={mediaType} onChange={(e) => setMediaType(e.target.value)}>
              <option value="video">Video (placeholder)</option>
              <option value="photo">Photo (placeholder)</option>
              <option value="story">Story (placeholder)</option>
            </select>
          </label>
          <label className="radio">
            <input
              type="checkbox"
              checked={paidPartnership}
              onChange={(e) => setPaidPartnership(e.target.checked)}
              aria-describedby="paid-partnership-hint"
              data-testid="sandbox-paid-partnership"
            />
            Show the “Paid partnership” label
          </label>
          <span id="paid-partnership-hint" className="muted small hint">
            Like Instagram’s, TikTok’s and YouTube’s branded-content label: the verifier accepts it
            as the post’s disclosure, in place of #ad in the caption.
          </span>
          {error ? (
            <div className="alert error" role="alert">
              {error}
            </div>
          ) : null}
          <div className="row">
            <button className="btn" type="submit" disabled={busy}>
              {busy ? "Publishing…" : "Publish"}
            </button>
          </div>
        </form>
        {published ? (
          <div className="alert" data-testid="sandbox-published">
            Published. Post URL:{" "}
            <a className="mono break" href={published.url} data-testid="sandbox-post-url">
              {published.url}
            </a>
          </div>
        ) : null}
      </section>
      <section
        className="card stack"
        data-testid="sandbox-posts"
        data-loaded={posts === null ? "false" : "true"}
      >
        <h2>Your posts</h2>
        {posts === null ? (
          <p className="muted">Loading…</p>
        ) : posts.length === 0 ? (
          <p className="muted empty">Nothing published yet.</p>
        ) : (
          <ul className="stack">
            {posts.map((p) => (
              <li key={p.id} className="spread" data-testid="sandbox-post">
                <div className="stack grow">
                  <a className="mono small break" href={p.url}>
                    {p.url}
                  </a>
                  {p.paidPartnership && <span className="muted small">Paid partnership</span>}
                  <span className="pre-line">{p.caption}</span>
                </div>
                <button
                  type="button"
                  className="btn small secondary"
                  onClick={() => void remove(p.id)}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
