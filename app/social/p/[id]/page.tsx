import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { publicPost } from "@/lib/social/posts";

export const metadata: Metadata = { title: "Sandbox post" };

// /social/p/:id – a sandbox post's public page (what the post URL opens)
export default async function SandboxPostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const post = await publicPost(await getDb(), id);
  if (!post) notFound();
  if (post.deletedAt)
    return (
      <section className="card stack narrow" data-testid="sandbox-post-deleted">
        <h1>This post was deleted</h1>
        <p className="muted">@{post.handle} removed it.</p>
      </section>
    );
  return (
    <article className="card stack narrow" data-testid="sandbox-post-page">
      <div className="spread">
        <span className="stack tight">
          <strong>@{post.handle}</strong>
          {post.paidPartnership && (
            <span className="muted small" data-testid="sandbox-paid-partnership-label">
              Paid partnership
            </span>
          )}
        </span>
        <span className="muted small">
          {post.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
        </span>
      </div>
      <div
        className="skeleton"
        style={{ aspectRatio: "9 / 16", maxHeight: 320 }}
        role="img"
        aria-label={`${post.mediaType} placeholder`}
      />
      <p className="pre-line" data-testid="sandbox-post-caption">
        {post.caption}
      </p>
    </article>
  );
}
