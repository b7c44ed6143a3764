import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as evidenceRoute from "@/app/api/milestones/[id]/evidence/route";
import * as handlesRoute from "@/app/api/profile/handles/route";
import * as oembedRoute from "@/app/api/social/oembed/route";
import * as postRoute from "@/app/api/social/posts/[id]/route";
import * as postsRoute from "@/app/api/social/posts/route";
import * as verifyRoute from "@/app/api/verify/route";
import { getDb } from "@/db/client";
import { insertEvidence } from "@/db/queries/evidence";
import { creatorHandles } from "@/db/schema";
import { call } from "../helpers/http";
import { publishOnSandbox, sandboxPlatform } from "../helpers/sandbox-platform";
import { makeUser, type TestUser } from "../helpers/users";
import { activeMilestone, goodDeliverable, submit } from "../verify/fixtures";

// The sandbox platform (publish, oEmbed, delete) and declared handles, through the routes.

let alice: TestUser;
let bob: TestUser;
const uniq = () => Math.random().toString(36).slice(2, 10);

beforeAll(async () => {
  await sandboxPlatform();
  alice = await makeUser("creator");
  bob = await makeUser("creator");
});

const oembed = (url: string) =>
  call(oembedRoute.GET, { path: `/api/social/oembed?url=${encodeURIComponent(url)}` });

describe("sandbox platform", () => {
  it("publishes a post with a URL whose oEmbed names its author and caption; the first post claims the handle", async () => {
    const handle = `alice_${uniq()}`;
    const res = await call(postsRoute.POST, {
      token: alice.token,
      body: { handle: `@${handle.toUpperCase()}`, caption: "Hello #ad", mediaType: "photo" },
    });
    expect(res.status).toBe(201);
    expect(res.body.post).toMatchObject({ handle, caption: "Hello #ad", mediaType: "photo" });
    expect(res.body.post.url).toMatch(/\/social\/p\/[0-9a-f-]{36}$/);

    const o = await oembed(res.body.post.url);
    expect(o.status).toBe(200);
    expect(o.body).toMatchObject({ type: "photo", title: "Hello #ad", author_name: handle });

    const handles = await call(handlesRoute.GET, { token: alice.token });
    expect(handles.body.handles).toContainEqual(
      expect.objectContaining({ platform: "sandbox", handle }),
    );

    // Later posts must use it; nobody else can take it.
    const other = await call(postsRoute.POST, {
      token: alice.token,
      body: { handle: `x${uniq()}`, caption: "again" },
    });
    expect(other.status).toBe(409);
    const taken = await call(postsRoute.POST, {
      token: bob.token,
      body: { handle, caption: "me too" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("taken");

    const mine = await call(postsRoute.GET, { token: alice.token });
    expect(mine.body.posts.map((p: { id: string }) => p.id)).toContain(res.body.post.id);
  });

  it("deletes only the owner's post; a deleted post's oEmbed is 404", async () => {
    const post = await publishOnSandbox(bob, "to be deleted");
    expect(
      (await call(postRoute.DELETE, { params: { id: post.id }, token: alice.token })).status,
    ).toBe(404);
    expect((await oembed(post.url)).status).toBe(200);
    expect(
      (await call(postRoute.DELETE, { params: { id: post.id }, token: bob.token })).status,
    ).toBe(204);
    expect((await oembed(post.url)).status).toBe(404);
    expect(
      (await call(postRoute.DELETE, { params: { id: post.id }, token: bob.token })).status,
    ).toBe(404);
  });

  it("answers 404 for URLs that are not its posts, 400 without a url, 401 to publish anonymously", async () => {
    expect((await oembed("https://www.instagram.com/p/abc/")).status).toBe(404);
    expect((await call(oembedRoute.GET, { path: "/api/social/oembed" })).status).toBe(400);
    const anon = await call(postsRoute.POST, { body: { handle: "x", caption: "y" } });
    expect(anon.status).toBe(401);
    const bad = await call(postsRoute.POST, {
      token: alice.token,
      body: { handle: "no spaces!", caption: "" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("declared handles", () => {
  it("puts, lists, replaces and deletes a handle per platform; another account's verified handle is a 409", async () => {
    const carol = await makeUser("creator");
    const handle = `carol.${uniq()}`;
    const put = await call(handlesRoute.PUT, {
      token: carol.token,
      body: { platform: "instagram", handle: `@${handle}` },
    });
    expect(put.status).toBe(200);
    expect(put.body.handle).toMatchObject({ platform: "instagram", handle });
    const again = await call(handlesRoute.PUT, {
      token: carol.token,
      body: { platform: "instagram", handle: `${handle}2` },
    });
    expect(again.body.handle.handle).toBe(`${handle}2`);
    const list = await call(handlesRoute.GET, { token: carol.token });
    expect(list.body.handles).toEqual([
      expect.objectContaining({ platform: "instagram", handle: `${handle}2` }),
    ]);

    // Declared, not verified: it holds nothing yet, another account may claim it too.
    const claim = { platform: "instagram", handle: `${handle}2` };
    expect((await call(handlesRoute.PUT, { token: bob.token, body: claim })).status).toBe(200);
    // Verified (as the check does, test/profile/handle-verification.test.ts): carol's alone.
    const db = await getDb();
    await db
      .update(creatorHandles)
      .set({ verifiedAt: new Date() })
      .where(
        and(eq(creatorHandles.userId, carol.user.id), eq(creatorHandles.platform, "instagram")),
      );
    await db
      .delete(creatorHandles)
      .where(and(eq(creatorHandles.userId, bob.user.id), eq(creatorHandles.platform, "instagram")));
    const clash = await call(handlesRoute.PUT, { token: bob.token, body: claim });
    expect(clash.status).toBe(409);
    // Same handle on another platform is someone else's business.
    const elsewhere = await call(handlesRoute.PUT, {
      token: bob.token,
      body: { platform: "tiktok", handle: `${handle}2` },
    });
    expect(elsewhere.status).toBe(200);

    const del = await call(handlesRoute.DELETE, {
      path: "/api/profile/handles?platform=instagram",
      token: carol.token,
    });
    expect(del.status).toBe(204);
    expect((await call(handlesRoute.GET, { token: carol.token })).body.handles).toEqual([]);
    const gone = await call(handlesRoute.DELETE, {
      path: "/api/profile/handles?platform=instagram",
      token: carol.token,
    });
    expect(gone.status).toBe(404);
  });

  it("one sandbox handle, many concurrent claimants: exactly one gets it, the rest 409", async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => makeUser("creator")));
    const handle = `race.${uniq()}`;
    const results = await Promise.all(
      users.map((u) =>
        call(handlesRoute.PUT, { token: u.token, body: { platform: "sandbox", handle } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const posts = await Promise.all(
      users.map((u) =>
        call(postsRoute.POST, { token: u.token, body: { handle, caption: "mine" } }),
      ),
    );
    expect(posts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(posts.filter((r) => r.status === 409)).toHaveLength(5);
  });

  it("rejects unknown platforms and malformed handles", async () => {
    for (const body of [
      { platform: "myspace", handle: "x" },
      { platform: "x", handle: "" },
      { platform: "x", handle: "has space" },
      { platform: "x", handle: "a".repeat(51) },
    ]) {
      const res = await call(handlesRoute.PUT, { token: alice.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("GET /api/milestones/:id/evidence", () => {
  it("shows the parties what was read, with the author checked against the declared handle", async () => {
    const brand = await makeUser("organization");
    const creator = await makeUser("creator");
    const { milestoneId } = await activeMilestone(brand, creator);
    const before = await call(evidenceRoute.GET, {
      params: { id: milestoneId },
      token: brand.token,
    });
    expect(before.body.evidence).toEqual([]);

    const theirs = await publishOnSandbox(bob, goodDeliverable.text);
    await publishOnSandbox(creator, "my own first post"); // declares the creator's sandbox handle
    await submit(creator, milestoneId, { ...goodDeliverable, url: theirs.url, publish: false });
    await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });

    const res = await call(evidenceRoute.GET, {
      params: { id: milestoneId },
      token: creator.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.evidence).toHaveLength(1);
    expect(res.body.evidence[0]).toMatchObject({
      revision: 1,
      status: "ok",
      platform: "sandbox",
      authorMatches: false,
      caption: goodDeliverable.text,
    });
    expect(res.body.evidence[0].authorHandle).not.toBe(res.body.evidence[0].declaredHandle);

    const stranger = await makeUser("organization");
    const hidden = await call(evidenceRoute.GET, {
      params: { id: milestoneId },
      token: stranger.token,
    });
    expect(hidden.status).toBe(404);
  });

  it("pages newest revision first, every revision exactly once, and refuses another milestone's cursor", async () => {
    const brand = await makeUser("organization");
    const creator = await makeUser("creator");
    const { milestoneId } = await activeMilestone(brand, creator);
    const db = await getDb();
    const read = (revision: number) =>
      insertEvidence(db, {
        milestoneId,
        revision,
        status: "ok",
        platform: "sandbox",
        url: `https://sandbox.example/p/${revision}`,
        contentHash: `0x${String(revision).padStart(64, "0")}`,
      });
    for (const revision of [1, 2, 3]) await read(revision);
    const page = (query: string) =>
      call(evidenceRoute.GET, {
        params: { id: milestoneId },
        token: brand.token,
        path: `/api/milestones/${milestoneId}/evidence?${query}`,
      });
    const revisions = (res: { body: { evidence: { revision: number }[] } }) =>
      res.body.evidence.map((e) => e.revision);

    const one = await page("limit=2");
    expect(one.status).toBe(200);
    expect(revisions(one)).toEqual([3, 2]);
    await read(4); // a new revision read between pages
    const two = await page(`limit=2&cursor=${encodeURIComponent(one.body.nextCursor)}`);
    expect(revisions(two)).toEqual([1]);
    expect(two.body.nextCursor).toBeNull();
    expect(revisions(await page(""))).toEqual([4, 3, 2, 1]);
    expect(revisions(await page("revision=2"))).toEqual([2]);

    const other = await activeMilestone(brand, creator);
    const foreign = await call(evidenceRoute.GET, {
      params: { id: other.milestoneId },
      token: brand.token,
      path: `/api/milestones/${other.milestoneId}/evidence?cursor=${encodeURIComponent(one.body.nextCursor)}`,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe("invalid_request");
  });
});
