import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as mediaRoute from "@/app/api/milestones/[id]/drafts/[draftId]/media/route";
import * as draftsRoute from "@/app/api/milestones/[id]/drafts/route";
import * as uploadsRoute from "@/app/api/uploads/route";
import { draftResponse } from "@/lib/drafts/schemas";
import { resetEnvCache } from "@/lib/env";
import { resetStorageCache } from "@/lib/storage";
import { uploadTicketSchema } from "@/lib/storage/direct";
import { type FakeS3, startFakeS3 } from "../helpers/fake-s3";
import { call, TEST_ORIGIN } from "../helpers/http";
import { jpegWithMetadata, mp4WithMetadata, SECRET } from "../helpers/media";
import { makeUser, type TestUser } from "../helpers/users";
import { activeMilestone, goodDeliverable, launchRules } from "../verify/fixtures";

// Direct uploads (lib/storage/direct.ts): a draft's file sent by the browser straight to the
// bucket with a presigned PUT, then named in the draft, so a 100 MB video never passes
// through a serverless function (Vercel caps a request body at 4.5 MB). Through the real
// route handlers and database, against the local fake S3 server (test/helpers/fake-s3: S3's
// wire shapes, presigned requests included); the embedded setup refuses the ticket.

let brand: TestUser;
let creator: TestUser;
let other: TestUser;
let fake: FakeS3;

const S3_ENV = {
  S3_BUCKET: "uploads",
  S3_ENDPOINT: "",
  S3_FORCE_PATH_STYLE: "1",
  S3_ACCESS_KEY_ID: "AKIAFAKE",
  S3_SECRET_ACCESS_KEY: "secret",
};

function useS3(on: boolean) {
  for (const [k, v] of Object.entries({ ...S3_ENV, S3_ENDPOINT: fake.endpoint }))
    if (on) process.env[k] = v;
    else delete process.env[k];
  resetEnvCache();
  resetStorageCache();
}

beforeAll(async () => {
  fake = await startFakeS3({ bucket: "uploads", accessKeyId: "AKIAFAKE" });
  brand = await makeUser("organization");
  creator = await makeUser("creator");
  other = await makeUser("creator");
  useS3(true);
});
afterAll(async () => {
  useS3(false);
  await fake.close();
});
afterEach(() => {
  delete process.env.UPLOAD_MAX_VIDEO_BYTES;
  resetEnvCache();
});

const ticket = (who: TestUser, body: unknown) =>
  call(uploadsRoute.POST, { token: who.token, body, path: "/api/uploads" });

/** What the browser does with a ticket: PUT the bytes to its URL with its headers. */
async function put(upload: { url: string; headers: Record<string, string> }, bytes: Buffer) {
  return fetch(upload.url, { method: "PUT", headers: upload.headers, body: new Uint8Array(bytes) });
}

const sendDraft = (who: TestUser, milestoneId: string, body: unknown) =>
  call(draftsRoute.POST, { params: { id: milestoneId }, token: who.token, body });

const incoming = () => [...fake.objects.keys()].filter((k) => k.startsWith("incoming/"));

describe("POST /api/uploads, then a draft naming the upload", () => {
  it("sends a video straight to the bucket; the draft keeps only the checked, stripped copy", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const { file } = mp4WithMetadata();
    const res = await ticket(creator, { type: "video/mp4", size: file.length });
    expect(res.status).toBe(201);
    const { upload } = uploadTicketSchema.strict().parse(res.body);
    const url = new URL(upload.url);
    expect(url.origin).toBe(fake.endpoint);
    expect(url.pathname).toBe(`/uploads/incoming/${creator.user.id}/${upload.id}`);
    // Type and length are signed (the bucket refuses any other file); no checksum is asked
    // for, which a browser's PUT could not match.
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(
      expect.arrayContaining(["content-length", "content-type", "host"]),
    );
    expect([...url.searchParams.keys()].some((k) => /checksum/i.test(k))).toBe(false);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(upload.headers).toEqual({ "Content-Type": "video/mp4" });

    expect((await put(upload, file)).status).toBe(200);
    expect(fake.presignedRequests.at(-1)).toMatchObject({ method: "PUT" });
    expect(incoming()).toEqual([`incoming/${creator.user.id}/${upload.id}`]);

    const draft = await sendDraft(creator, milestoneId, {
      caption: goodDeliverable.text,
      upload: upload.id,
      uploadName: "launch-cut.mp4",
    });
    expect(draft.status).toBe(201);
    const { draft: d } = draftResponse.strict().parse(draft.body);
    expect(d.media).toMatchObject({
      kind: "video",
      type: "video/mp4",
      size: file.length,
      name: "launch-cut.mp4",
    });
    // The incoming object is gone; what is stored is the stripped copy, under the draft's key.
    expect(incoming()).toEqual([]);
    const stored = [...fake.objects.entries()].find(([k]) => k.startsWith("drafts/"));
    expect(stored?.[1].body.includes(SECRET)).toBe(false);
    const served = await mediaRoute.GET(
      new Request(`${TEST_ORIGIN}/x`, { headers: { authorization: `Bearer ${brand.token}` } }),
      { params: Promise.resolve({ id: milestoneId, draftId: d.id }) },
    );
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).includes(SECRET)).toBe(false);

    // Claimed once: naming it again finds nothing.
    const again = await sendDraft(creator, milestoneId, {
      caption: goodDeliverable.text,
      upload: upload.id,
    });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual([
      expect.objectContaining({ path: ["upload"], message: "no such upload" }),
    ]);
  });

  it("names only the caller's own uploads; a file that lies about its type is refused and removed", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const jpeg = await jpegWithMetadata();
    // Another person's upload, however real, cannot be claimed by id.
    const theirs = uploadTicketSchema.parse(
      (await ticket(other, { type: "image/jpeg", size: jpeg.length })).body,
    ).upload;
    expect((await put(theirs, jpeg)).status).toBe(200);
    const stolen = await sendDraft(creator, milestoneId, {
      caption: goodDeliverable.text,
      upload: theirs.id,
    });
    expect(stolen.status).toBe(400);
    expect(incoming()).toContain(`incoming/${other.user.id}/${theirs.id}`);

    // Declared PNG, bytes JPEG: 415 as for a form upload, and the incoming file is removed.
    const lying = uploadTicketSchema.parse(
      (await ticket(creator, { type: "image/png", size: jpeg.length })).body,
    ).upload;
    expect((await put(lying, jpeg)).status).toBe(200);
    const refused = await sendDraft(creator, milestoneId, {
      caption: goodDeliverable.text,
      upload: lying.id,
    });
    expect(refused.status).toBe(415);
    expect(refused.body.error.code).toBe("unsupported_media_type");
    expect(incoming()).not.toContain(`incoming/${creator.user.id}/${lying.id}`);
  });

  it("refuses bad tickets in the error envelope: a type not taken, a size past its kind's limit, media sent two ways", async () => {
    const badType = await ticket(creator, { type: "text/html", size: 10 });
    expect(badType.status).toBe(400);
    expect(badType.body.error.code).toBe("invalid_request");
    const zero = await ticket(creator, { type: "image/png", size: 0 });
    expect(zero.status).toBe(400);
    process.env.UPLOAD_MAX_VIDEO_BYTES = "1000";
    resetEnvCache();
    const big = await ticket(creator, { type: "video/mp4", size: 1001 });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({
      code: "payload_too_large",
      details: { size: 1001, limit: 1000 },
    });

    const { milestoneId } = await activeMilestone(brand, creator, launchRules);
    const both = await sendDraft(creator, milestoneId, {
      caption: goodDeliverable.text,
      link: "https://drive.example/x",
      upload: "00000000-0000-4000-8000-000000000000.mp4",
    });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([expect.objectContaining({ path: ["upload"] })]);
    const malformed = await sendDraft(creator, milestoneId, {
      caption: goodDeliverable.text,
      upload: "../../drafts/x.mp4",
    });
    expect(malformed.status).toBe(400);
  });

  it("the embedded setup keeps files on its disk: the ticket is 503 not_configured (send the form)", async () => {
    useS3(false);
    try {
      const res = await ticket(creator, { type: "image/png", size: 10 });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("not_configured");
    } finally {
      useS3(true);
    }
  });
});
