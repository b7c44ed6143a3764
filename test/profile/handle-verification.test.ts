import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as handlesRoute from "@/app/api/profile/handles/route";
import * as verifyHandleRoute from "@/app/api/profile/handles/verify/route";
import * as verifyRoute from "@/app/api/verify/route";
import { getDb } from "@/db/client";
import { creatorHandles } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { verifyHandle } from "@/lib/profile/verify-handle";
import type { EvidenceOptions } from "@/lib/verify/evidence";
import { call } from "../helpers/http";
import {
  publishOnSandbox,
  sandboxHandleOf,
  sandboxPlatform,
  verifySandboxHandle,
} from "../helpers/sandbox-platform";
import { makeUser, type TestUser } from "../helpers/users";
import { activeMilestone, goodDeliverable, reject, submit } from "../verify/fixtures";

// A declared handle counts once the creator proves it is theirs: its one-time code placed in
// a post by that handle, read through the evidence adapters (here the sandbox, over HTTP).
// Until then a verdict on its posts is approved: false, saying why.

type HandleRow = {
  platform: string;
  handle: string;
  verified: boolean;
  verifiedAt: string | null;
  verification: { code: string; expiresAt: string; expired: boolean } | null;
};

// A fake TikTok: its oEmbed answers for the posts a test puts here (author and caption).
const tiktokPosts = new Map<string, { author: string; caption: string }>();
let tiktokServer: http.Server;
let tiktok: EvidenceOptions;

beforeAll(async () => {
  await sandboxPlatform();
  tiktokServer = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://fake");
    const p = tiktokPosts.get(u.searchParams.get("url") ?? "");
    if (u.pathname !== "/oembed" || !p) {
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ author_unique_id: p.author, title: p.caption, type: "video" }));
  });
  await new Promise<void>((r) => tiktokServer.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(tiktokServer.address() as AddressInfo).port}`;
  tiktok = { allowHosts: [new URL(origin).host], endpoints: { tiktok: `${origin}/oembed` } };
});

afterAll(() => new Promise<void>((r) => tiktokServer.close(() => r())));

let tiktokIds = 0;
/** A TikTok post by `author` with this caption; returns its URL. */
function onTiktok(author: string, caption: string): string {
  const url = `https://www.tiktok.com/@${author}/video/${7_000_000 + ++tiktokIds}`;
  tiktokPosts.set(url, { author, caption });
  return url;
}

const declare = async (user: TestUser, handle = sandboxHandleOf(user)): Promise<HandleRow> => {
  const res = await call(handlesRoute.PUT, {
    method: "PUT",
    token: user.token,
    body: { platform: "sandbox", handle },
  });
  expect(res.status).toBe(200);
  return res.body.handle;
};

const sandboxRow = async (user: TestUser): Promise<HandleRow | undefined> => {
  const res = await call(handlesRoute.GET, { token: user.token });
  expect(res.status).toBe(200);
  return (res.body.handles as HandleRow[]).find((h) => h.platform === "sandbox");
};

const check = (user: TestUser, postUrl: string, handle = sandboxHandleOf(user)) =>
  call(verifyHandleRoute.POST, {
    token: user.token,
    body: { platform: "sandbox", handle, postUrl },
  });

const post = (user: TestUser, caption: string) =>
  publishOnSandbox(user, caption, { verify: false });

describe("proving a handle with a one-time code", () => {
  it("a declared handle starts unverified, with a code to place", async () => {
    const creator = await makeUser("creator");
    const row = await declare(creator);
    expect(row).toMatchObject({ verified: false, verifiedAt: null });
    expect(row.verification?.code).toMatch(/^milestone-verify-[a-z0-9]{8}$/);
    expect(row.verification?.expired).toBe(false);
    // the same handle again keeps the code; another user's code differs
    expect((await declare(creator)).verification?.code).toBe(row.verification?.code);
    const other = await makeUser("creator");
    expect((await declare(other)).verification?.code).not.toBe(row.verification?.code);
  });

  it("a post by the handle without the code leaves it unverified", async () => {
    const creator = await makeUser("creator");
    await declare(creator);
    const plain = await post(creator, "Just a post, no code in it");
    const res = await check(creator, plain.url);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: "handle_unverified",
      details: { reason: "code_missing" },
    });
    expect((await sandboxRow(creator))?.verified).toBe(false);
  });

  it("the code placed in a post by another handle does not verify it", async () => {
    const creator = await makeUser("creator");
    const mallory = await makeUser("creator");
    const code = (await declare(creator)).verification?.code;
    // Someone else posts the creator's code: the post is not by the creator's handle.
    const theirs = await post(mallory, `Look: ${code}`);
    const res = await check(creator, theirs.url);
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ reason: "wrong_author" });
    expect(res.body.error.message).toContain(`@${sandboxHandleOf(mallory)}`);
    expect((await sandboxRow(creator))?.verified).toBe(false);
    // Nor can the other user verify a handle they have not declared with it.
    const squat = await check(mallory, theirs.url, sandboxHandleOf(creator));
    expect(squat.status).toBe(404);
    expect((await sandboxRow(creator))?.verified).toBe(false);
  });

  it("an expired code does not verify it; declaring the handle again gives a new code", async () => {
    const creator = await makeUser("creator");
    const handle = sandboxHandleOf(creator);
    const old = (await declare(creator)).verification?.code as string;
    const db = await getDb();
    await db
      .update(creatorHandles)
      .set({ verificationExpiresAt: new Date(Date.now() - 60_000) })
      .where(
        and(eq(creatorHandles.userId, creator.user.id), eq(creatorHandles.platform, "sandbox")),
      );
    expect((await sandboxRow(creator))?.verification?.expired).toBe(true);
    const placed = await post(creator, `Verifying: ${old}`);
    const res = await check(creator, placed.url);
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ reason: "code_expired" });
    expect((await sandboxRow(creator))?.verified).toBe(false);

    const renewed = await declare(creator, handle);
    expect(renewed.verification?.code).not.toBe(old);
    // The old code, though in a post by the handle, no longer counts.
    expect((await check(creator, placed.url)).body.error.details).toEqual({
      reason: "code_missing",
    });
    const again = await post(creator, `Verifying: ${renewed.verification?.code}`);
    expect((await check(creator, again.url)).status).toBe(200);
  });

  it("the right code in a post by the handle verifies it; the code is spent", async () => {
    const creator = await makeUser("creator");
    const code = (await declare(creator)).verification?.code;
    const placed = await post(creator, `Verifying my handle for Milestone ${code?.toUpperCase()}`);
    const res = await check(creator, placed.url);
    expect(res.status).toBe(200);
    expect(res.body.handle).toMatchObject({
      platform: "sandbox",
      handle: sandboxHandleOf(creator),
      verified: true,
      verification: null,
    });
    expect(res.body.handle.verifiedAt).toEqual(expect.any(String));
    expect(await sandboxRow(creator)).toMatchObject({ verified: true, verification: null });
    // Checking again is harmless; declaring the same handle again keeps it verified.
    expect((await check(creator, placed.url)).status).toBe(200);
    expect((await declare(creator)).verified).toBe(true);
    // A changed handle is a new claim: unverified, with a new code.
    const changed = await declare(creator, `${sandboxHandleOf(creator)}_new`);
    expect(changed.verified).toBe(false);
    expect(changed.verification?.code).not.toBe(code);
  });
});

describe("verdicts on posts by unverified handles", () => {
  it("are approved: false with the reason; after verification the same post is approved", async () => {
    const brand = await makeUser("organization");
    const creator = await makeUser("creator");
    const { milestoneId } = await activeMilestone(brand, creator);
    // Everything required is in the post, by the creator's own (declared) handle.
    const deliverable = await post(creator, goodDeliverable.text);
    await submit(creator, milestoneId, {
      ...goodDeliverable,
      url: deliverable.url,
      publish: false,
    });
    const before = await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(before.status).toBe(200);
    expect(before.body.approved).toBe(false);
    expect(before.body.missing).toEqual([
      expect.stringMatching(new RegExp(`^handle @${sandboxHandleOf(creator)} is not verified`)),
    ]);

    await verifySandboxHandle(creator);
    await reject(milestoneId);
    await submit(creator, milestoneId, {
      ...goodDeliverable,
      url: deliverable.url,
      publish: false,
    });
    const after = await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ approved: true, missing: [] });
  });
});

describe("who holds a handle", () => {
  const declareOn = (user: TestUser, platform: string, handle: string) =>
    call(handlesRoute.PUT, { method: "PUT", token: user.token, body: { platform, handle } });

  it("an unverified claim does not lock the owner out: whoever verifies holds it, the other claim goes", async () => {
    const handle = `star${Date.now().toString(36)}`;
    const squatter = await makeUser("creator");
    const owner = await makeUser("creator");
    expect((await declareOn(squatter, "tiktok", handle)).status).toBe(200);
    const claimed = await declareOn(owner, "tiktok", handle);
    expect(claimed.status).toBe(200);
    const code = claimed.body.handle.verification.code as string;

    // A sandbox post is not a TikTok post; the squatter cannot use the owner's post either.
    const wrongPlace = await post(owner, `mine: ${code}`);
    const refused = await verifyHandle(
      await getDb(),
      owner.user,
      { platform: "tiktok", handle, postUrl: wrongPlace.url },
      tiktok,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toEqual({ reason: "wrong_platform" });

    const proof = onTiktok(handle, `Verifying for Milestone ${code}`);
    const db = await getDb();
    const stolen = await verifyHandle(
      db,
      squatter.user,
      { platform: "tiktok", handle, postUrl: proof },
      tiktok,
    ).catch((e: unknown) => e);
    expect((stolen as AppError).details).toEqual({ reason: "code_missing" });

    const verified = await verifyHandle(
      db,
      owner.user,
      { platform: "tiktok", handle, postUrl: proof },
      tiktok,
    );
    expect(verified).toMatchObject({ platform: "tiktok", handle, verified: true });
    const left = await db
      .select({ userId: creatorHandles.userId })
      .from(creatorHandles)
      .where(and(eq(creatorHandles.platform, "tiktok"), eq(creatorHandles.handle, handle)));
    expect(left).toEqual([{ userId: owner.user.id }]);
    // Now it is held: nobody else can claim it.
    const late = await declareOn(squatter, "tiktok", handle);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("conflict");
  });

  it("two accounts verifying one handle at once: exactly one holds it", async () => {
    const handle = `race${Date.now().toString(36)}`;
    const users = await Promise.all([makeUser("creator"), makeUser("creator")]);
    const db = await getDb();
    const attempts = await Promise.all(
      users.map(async (u) => {
        const code = (await declareOn(u, "tiktok", handle)).body.handle.verification.code;
        // (A real platform lets one account post as the handle; the race is on our side.)
        const postUrl = onTiktok(handle, `Verifying ${code}`);
        return verifyHandle(db, u.user, { platform: "tiktok", handle, postUrl }, tiktok).then(
          (h) => h.verified,
          (e: unknown) => (e instanceof AppError ? e.code : String(e)),
        );
      }),
    );
    expect(attempts.filter((a) => a === true)).toHaveLength(1);
    expect(attempts.filter((a) => a !== true)[0]).toMatch(/^(conflict|handle_unverified)$/);
    const rows = await db
      .select({ verifiedAt: creatorHandles.verifiedAt })
      .from(creatorHandles)
      .where(and(eq(creatorHandles.platform, "tiktok"), eq(creatorHandles.handle, handle)));
    expect(rows.filter((r) => r.verifiedAt !== null)).toHaveLength(1);
  });

  it("on the sandbox the first to declare a handle holds it", async () => {
    const first = await makeUser("creator");
    const second = await makeUser("creator");
    await declare(first);
    const taken = await declareOn(second, "sandbox", sandboxHandleOf(first));
    expect(taken.status).toBe(409);
  });
});
