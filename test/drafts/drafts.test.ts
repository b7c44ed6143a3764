import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as approveRoute from "@/app/api/milestones/[id]/drafts/[draftId]/approve/route";
import * as mediaRoute from "@/app/api/milestones/[id]/drafts/[draftId]/media/route";
import * as changesRoute from "@/app/api/milestones/[id]/drafts/[draftId]/request-changes/route";
import * as draftRoute from "@/app/api/milestones/[id]/drafts/[draftId]/route";
import * as draftsRoute from "@/app/api/milestones/[id]/drafts/route";
import * as precheckRoute from "@/app/api/milestones/[id]/precheck/route";
import * as verifyRoute from "@/app/api/verify/route";
import { getDb } from "@/db/client";
import { dealEvents, drafts, emailOutbox, notifications } from "@/db/schema";
import { draftPageResponse, draftResponse } from "@/lib/drafts/schemas";
import { resetEnvCache } from "@/lib/env";
import { resetStorageCache } from "@/lib/storage";
import { DISCLOSURE_MISSING, DISCLOSURE_RULE } from "@/lib/verify/checks";
import { call, TEST_ORIGIN } from "../helpers/http";
import { jpegWithMetadata, mp4WithMetadata, pngWithMetadata, SECRET } from "../helpers/media";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import { makeUser, type TestUser } from "../helpers/users";
import { activeMilestone, goodDeliverable, launchRules, submit } from "../verify/fixtures";

// Drafts before posting (issue 24, item 1), through the real route handlers on the real
// database (PGlite, or PostgreSQL with TEST_DATABASE_URL) with the local storage driver in a
// directory of this file's own: uploads checked and stripped, revisions, the brand's answer
// exactly once, the rule checks on the caption, the live post held to the approved draft,
// and nobody but the two parties reading a draft or its file.

let brand: TestUser;
let creator: TestUser;
let stranger: TestUser;
let storageDir: string;

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), "milestone-drafts-"));
  process.env.STORAGE_DIR = storageDir;
  resetEnvCache();
  resetStorageCache();
  brand = await makeUser("organization");
  creator = await makeUser("creator");
  stranger = await makeUser("creator");
});
afterAll(() => {
  delete process.env.STORAGE_DIR;
  resetEnvCache();
  resetStorageCache();
  rmSync(storageDir, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.UPLOAD_MAX_IMAGE_BYTES;
  resetEnvCache();
});

const missingAd = goodDeliverable.text.replace(" #ad", "");

/** POST …/drafts as the browser's form does: multipart with the file. */
async function upload(
  who: TestUser,
  milestoneId: string,
  caption: string,
  file?: { bytes: Buffer; type: string; name: string },
) {
  const form = new FormData();
  form.set("caption", caption);
  if (file)
    form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const req = new Request(`${TEST_ORIGIN}/api/milestones/${milestoneId}/drafts`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${who.token}` },
  });
  const res = await draftsRoute.POST(req, { params: Promise.resolve({ id: milestoneId }) });
  return { status: res.status, body: await res.json() };
}

const sendJson = (who: TestUser, milestoneId: string, body: unknown) =>
  call(draftsRoute.POST, { params: { id: milestoneId }, token: who.token, body });
const list = (who: TestUser, milestoneId: string) =>
  call(draftsRoute.GET, { params: { id: milestoneId }, token: who.token });
const approve = (who: TestUser, milestoneId: string, draftId: string) =>
  call(approveRoute.POST, {
    params: { id: milestoneId, draftId },
    token: who.token,
    method: "POST",
  });
const requestChanges = (who: TestUser, milestoneId: string, draftId: string, message: string) =>
  call(changesRoute.POST, {
    params: { id: milestoneId, draftId },
    token: who.token,
    body: { message },
  });
const media = (who: TestUser, milestoneId: string, draftId: string, range?: string) =>
  mediaRoute.GET(
    new Request(`${TEST_ORIGIN}/x`, {
      headers: { authorization: `Bearer ${who.token}`, ...(range ? { range } : {}) },
    }),
    { params: Promise.resolve({ id: milestoneId, draftId }) },
  );

async function eventsOf(milestoneId: string, type: string) {
  const db = await getDb();
  return db
    .select()
    .from(dealEvents)
    .where(and(eq(dealEvents.milestoneId, milestoneId), eq(dealEvents.type, type as never)));
}

async function draftRows(milestoneId: string) {
  const db = await getDb();
  return db.select().from(drafts).where(eq(drafts.milestoneId, milestoneId));
}

/** Every file the local storage holds (not its type sidecars). */
const storedFiles = (): string[] =>
  (readdirSync(storageDir, { recursive: true }) as string[]).filter((f) =>
    /\.(jpg|png|webp|mp4|mov|webm)$/.test(f),
  );

describe("POST /api/milestones/:id/drafts", () => {
  it("stores an image without its metadata, checks the caption at once, and tells the brand", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const jpeg = await jpegWithMetadata();
    const res = await upload(creator, milestoneId, missingAd, {
      bytes: jpeg,
      type: "image/jpeg",
      name: "IMG_0042.jpg",
    });
    expect(res.status).toBe(201);
    const { draft } = draftResponse.strict().parse(res.body);
    expect(draft).toMatchObject({
      revision: 1,
      status: "submitted",
      caption: missingAd,
      media: { kind: "image", type: "image/jpeg", name: "IMG_0042.jpg" },
      // The deal's disclosure rule (on for new deals) is checked on the draft too.
      check: { ready: false, missing: ["hashtag #ad", DISCLOSURE_MISSING] },
    });
    expect(draft.check.requirements).toContainEqual({
      kind: "hashtag",
      value: "#ad",
      found: false,
    });
    expect(draft.check.requirements).toContainEqual({
      kind: "disclosure",
      value: DISCLOSURE_RULE,
      found: false,
    });

    // The stored bytes, read back from the disk and through the route: no metadata left.
    const [row] = await draftRows(milestoneId);
    const onDisk = readFileSync(path.join(storageDir, row?.mediaKey ?? "missing"));
    expect(onDisk.includes(SECRET)).toBe(false);
    const served = await media(brand, milestoneId, draft.id);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toBe("private, no-store");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes).toEqual(onDisk);
    const meta = await sharp(bytes).metadata();
    expect([meta.exif, meta.xmp, meta.icc]).toEqual([undefined, undefined, undefined]);
    expect(draft.media).toMatchObject({ size: onDisk.length });

    // On the timeline, in the brand's inbox and e-mail (not the creator's: they did it).
    const [event] = await eventsOf(milestoneId, "draft.submitted");
    expect(event?.data).toMatchObject({
      draftId: draft.id,
      revision: 1,
      missing: ["hashtag #ad", DISCLOSURE_MISSING],
    });
    const db = await getDb();
    const told = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.eventId, event?.id ?? ""));
    expect(told).toEqual([{ userId: brand.user.id }]);
    const mailed = await db
      .select({ userId: emailOutbox.userId })
      .from(emailOutbox)
      .where(eq(emailOutbox.eventId, event?.id ?? ""));
    expect(mailed).toEqual([{ userId: brand.user.id }]);
  });

  it("refuses a file that lies about its type (415) and one over the limit (413); nothing is stored", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const before = storedFiles().length;
    const png = await pngWithMetadata();
    const lie = await upload(creator, milestoneId, goodDeliverable.text, {
      bytes: png,
      type: "image/jpeg",
      name: "photo.jpg",
    });
    expect(lie.status).toBe(415);
    expect(lie.body.error).toMatchObject({
      code: "unsupported_media_type",
      message: "The file says it is image/jpeg, but its content is image/png.",
    });
    const script = await upload(creator, milestoneId, goodDeliverable.text, {
      bytes: Buffer.from("<html><script>alert(1)</script></html>"),
      type: "image/png",
      name: "cat.png",
    });
    expect(script.status).toBe(415);

    process.env.UPLOAD_MAX_IMAGE_BYTES = "1000";
    resetEnvCache();
    const big = await upload(creator, milestoneId, goodDeliverable.text, {
      bytes: await sharp({
        create: {
          width: 400,
          height: 400,
          channels: 3,
          background: "#888",
          noise: { type: "gaussian", mean: 128, sigma: 60 },
        },
      })
        .jpeg({ quality: 100 })
        .toBuffer(),
      type: "image/jpeg",
      name: "big.jpg",
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");

    expect(await draftRows(milestoneId)).toEqual([]);
    expect(storedFiles().length).toBe(before);
    expect(await eventsOf(milestoneId, "draft.submitted")).toEqual([]);
  });

  it("is the creator's, before the post: the brand 403, a stranger 404, a submitted milestone 409, bad input 400", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    expect((await sendJson(brand, milestoneId, { caption: "x" })).status).toBe(403);
    expect((await sendJson(stranger, milestoneId, { caption: "x" })).status).toBe(404);
    const empty = await sendJson(creator, milestoneId, { caption: "  " });
    expect(empty.status).toBe(400);
    const badLink = await sendJson(creator, milestoneId, {
      caption: "x",
      link: "javascript:alert(1)",
    });
    expect(badLink.status).toBe(400);
    const wrongType = await call(draftsRoute.POST, {
      params: { id: milestoneId },
      token: creator.token,
      rawBody: "caption=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(wrongType.status).toBe(415);
    await submit(creator, milestoneId);
    const late = await sendJson(creator, milestoneId, { caption: goodDeliverable.text });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("invalid_state");
  });

  it("takes a video (MP4: location boxes blanked) and a link", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const { file } = mp4WithMetadata();
    const video = await upload(creator, milestoneId, goodDeliverable.text, {
      bytes: file,
      type: "video/mp4",
      name: "clip.mp4",
    });
    expect(video.status).toBe(201);
    expect(video.body.draft.media).toMatchObject({
      kind: "video",
      type: "video/mp4",
      size: file.length,
    });
    const served = Buffer.from(
      await (await media(creator, milestoneId, video.body.draft.id)).arrayBuffer(),
    );
    expect(served.includes(SECRET)).toBe(false);
    expect(served.length).toBe(file.length);
    // A video player (Safari always) asks for ranges: 206 with the bytes asked for, 416 past the end.
    const first = await media(creator, milestoneId, video.body.draft.id, "bytes=0-1");
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-1/${file.length}`);
    expect(first.headers.get("content-length")).toBe("2");
    expect(Buffer.from(await first.arrayBuffer())).toEqual(served.subarray(0, 2));
    const tail = await media(brand, milestoneId, video.body.draft.id, "bytes=-10");
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(served.subarray(-10));
    const past = await media(creator, milestoneId, video.body.draft.id, `bytes=${file.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${file.length}`);

    const link = await sendJson(creator, milestoneId, {
      caption: goodDeliverable.text,
      link: "https://drive.example/preview/abc",
    });
    expect(link.status).toBe(201);
    expect(link.body.draft).toMatchObject({
      revision: 2,
      media: { kind: "link", url: "https://drive.example/preview/abc" },
      check: { ready: true, missing: [] },
    });
    expect((await media(creator, milestoneId, link.body.draft.id)).status).toBe(404);
  });
});

describe("revisions and the brand's answer", () => {
  it("changes requested with a message, a second revision, approved; each on the timeline", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const first = (await sendJson(creator, milestoneId, { caption: missingAd })).body.draft;
    const asked = await requestChanges(brand, milestoneId, first.id, "Please add #ad up front.");
    expect(asked.status).toBe(200);
    expect(asked.body.draft).toMatchObject({
      status: "changes_requested",
      reviewMessage: "Please add #ad up front.",
    });
    // The creator cannot answer for the brand.
    expect((await approve(creator, milestoneId, first.id)).status).toBe(403);

    const second = await sendJson(creator, milestoneId, { caption: goodDeliverable.text });
    expect(second.body.draft).toMatchObject({ revision: 2, check: { ready: true } });
    const approved = await approve(brand, milestoneId, second.body.draft.id);
    expect(approved.status).toBe(200);
    expect(approved.body.draft.status).toBe("approved");
    // A change request after the approval is refused; the first revision stays as answered.
    const late = await requestChanges(brand, milestoneId, second.body.draft.id, "one more thing");
    expect(late.status).toBe(409);
    expect((await approve(brand, milestoneId, first.id)).status).toBe(409);

    const listed = draftPageResponse.strict().parse((await list(creator, milestoneId)).body);
    expect(listed.drafts.map((d) => [d.revision, d.status])).toEqual([
      [2, "approved"],
      [1, "changes_requested"],
    ]);
    const [changes] = await eventsOf(milestoneId, "draft.changes_requested");
    expect(changes?.data).toMatchObject({ revision: 1, message: "Please add #ad up front." });
    expect(await eventsOf(milestoneId, "draft.submitted")).toHaveLength(2);
    expect(await eventsOf(milestoneId, "draft.approved")).toHaveLength(1);
  });

  it("a newer revision supersedes one still waiting; the brand cannot approve the old one", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const one = (await sendJson(creator, milestoneId, { caption: missingAd })).body.draft;
    const two = (await sendJson(creator, milestoneId, { caption: goodDeliverable.text })).body
      .draft;
    const stale = await approve(brand, milestoneId, one.id);
    expect(stale.status).toBe(409);
    expect(stale.body.error.details).toMatchObject({ status: "superseded" });
    expect((await approve(brand, milestoneId, two.id)).status).toBe(200);
  });

  it("approves exactly once under concurrent repeats", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const draft = (await sendJson(creator, milestoneId, { caption: goodDeliverable.text })).body
      .draft;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => approve(brand, milestoneId, draft.id)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.draft.status))).toEqual(new Set(["approved"]));
    expect(await eventsOf(milestoneId, "draft.approved")).toHaveLength(1);
    // Concurrent change requests on another draft: one recorded, the repeats answer it as it is.
    const next = await activeMilestone(brand, creator, launchRules);
    const d2 = (await sendJson(creator, next.milestoneId, { caption: missingAd })).body.draft;
    const asks = await Promise.all(
      Array.from({ length: 4 }, () => requestChanges(brand, next.milestoneId, d2.id, "add #ad")),
    );
    expect(asks.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await eventsOf(next.milestoneId, "draft.changes_requested")).toHaveLength(1);
  });
});

describe("only the deal's two parties", () => {
  it("a third party cannot list, read, answer or download a draft", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const draft = (
      await upload(creator, milestoneId, goodDeliverable.text, {
        bytes: await jpegWithMetadata(),
        type: "image/jpeg",
        name: "a.jpg",
      })
    ).body.draft;
    const otherBrand = await makeUser("organization");
    for (const who of [stranger, otherBrand]) {
      expect((await list(who, milestoneId)).status).toBe(404);
      expect(
        (
          await call(draftRoute.GET, {
            params: { id: milestoneId, draftId: draft.id },
            token: who.token,
          })
        ).status,
      ).toBe(404);
      expect((await media(who, milestoneId, draft.id)).status).toBe(404);
      expect((await approve(who, milestoneId, draft.id)).status).toBe(404);
    }
    // A draft id under another milestone is not found either (the pair is the owner filter).
    const other = await activeMilestone(brand, creator, launchRules);
    expect((await media(brand, other.milestoneId, draft.id)).status).toBe(404);
    // Unauthenticated: 401.
    const anon = await mediaRoute.GET(new Request(`${TEST_ORIGIN}/x`), {
      params: Promise.resolve({ id: milestoneId, draftId: draft.id }),
    });
    expect(anon.status).toBe(401);
    expect((await media(brand, milestoneId, draft.id)).status).toBe(200);
  });
});

describe("the live post must match the approved draft", () => {
  const edited = goodDeliverable.text.replace(
    "The Milestone app gets creators paid per milestone.",
    "Use code SAVE50 for half off, today only!",
  );

  async function approvedDraftMilestone(caption: string) {
    const ids = await activeMilestone(brand, creator, launchRules);
    const d = (await sendJson(creator, ids.milestoneId, { caption })).body.draft;
    expect((await approve(brand, ids.milestoneId, d.id)).status).toBe(200);
    return ids;
  }

  it("the same caption passes", async () => {
    const { milestoneId } = await approvedDraftMilestone(goodDeliverable.text);
    // Spacing and case as the platform shows them do not count as differences.
    await submit(creator, milestoneId, { ...goodDeliverable, text: `  ${goodDeliverable.text}\n` });
    const verdict = await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(verdict.status).toBe(200);
    expect(verdict.body).toMatchObject({ approved: true, missing: [] });
  });

  it("an edited caption lists the difference under missing, and is not approved", async () => {
    const { milestoneId } = await approvedDraftMilestone(goodDeliverable.text);
    // The pre-check says so before submitting…
    const post = await publishOnSandbox(creator, edited);
    const pre = await call(precheckRoute.POST, {
      params: { id: milestoneId },
      token: creator.token,
      body: { url: post.url },
    });
    expect(pre.body.ready).toBe(false);
    expect(pre.body.missing[0]).toMatch(/^caption differs from the approved draft \(revision 1\)/);
    // …and the verdict on the submitted post.
    await submit(creator, milestoneId, { ...goodDeliverable, text: edited });
    const verdict = await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(verdict.status).toBe(200);
    expect(verdict.body.approved).toBe(false);
    const missing: string[] = verdict.body.missing;
    expect(missing[0]).toMatch(
      /^caption differs from the approved draft \(revision 1\): \d+ % the same, at least 90 % needed$/,
    );
    expect(missing).toContain(
      'approved draft text not in the post: "the milestone app gets creators paid per milestone."',
    );
    expect(missing).toContain(
      'post text not in the approved draft: "use code save50 for half off, today only!"',
    );
    expect(verdict.body.reasoning).toContain("Approved draft: the post does not match it");
  });
});
