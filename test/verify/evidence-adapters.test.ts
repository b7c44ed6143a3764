import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import {
  adapterFor,
  type EvidenceOptions,
  evidenceContentHash,
  fetchEvidence,
} from "@/lib/verify/evidence";
import { canonicalJson } from "@/lib/verify/record";

// Each platform's adapter against its recorded oEmbed answer (test/fixtures/oembed), served
// by a local fake platform that records what it was asked.

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "../fixtures/oembed", name), "utf8");

type Seen = { path: string; params: URLSearchParams };
const seen: Seen[] = [];
let server: http.Server;
let origin: string;
let options: EvidenceOptions;

const DELETED = "gone";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://fake");
    seen.push({ path: u.pathname, params: u.searchParams });
    if (u.searchParams.get("url")?.includes(DELETED) || u.pathname.includes(DELETED)) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const platform = u.pathname.split("/")[1] ?? "";
    if (u.pathname === "/web/post") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(fixture("page.html"));
      return;
    }
    if (u.pathname === "/web/private") {
      res.writeHead(403, { "content-type": "text/html" }).end("<h1>Login required</h1>");
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json; charset=utf-8" })
      .end(fixture(`${platform}.json`));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  options = {
    env: parseEnv({ NODE_ENV: "test", INSTAGRAM_OEMBED_TOKEN: "123|client-token" }),
    allowHosts: [new URL(origin).host],
    endpoints: {
      youtube: `${origin}/youtube/oembed`,
      tiktok: `${origin}/tiktok/oembed`,
      x: `${origin}/x/oembed`,
      instagram: `${origin}/instagram/oembed`,
    },
  };
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const last = () => seen.at(-1) as Seen;

describe("platform adapters (recorded oEmbed answers)", () => {
  it("YouTube: title as caption, handle from the @ channel URL", async () => {
    const url = "https://www.youtube.com/watch?v=Mi1eStOnE01";
    const e = await fetchEvidence(url, options);
    expect(last().path).toBe("/youtube/oembed");
    expect(last().params.get("url")).toBe(url);
    expect(last().params.get("format")).toBe("json");
    expect(e).toMatchObject({
      status: "ok",
      record: {
        platform: "youtube",
        url,
        canonicalUrl: url,
        authorHandle: "creatorstudio",
        caption: expect.stringContaining("#MilestoneLaunch #ad @milestone.app"),
        mediaType: "video",
        thumbnailUrl: "https://i.ytimg.com/vi/Mi1eStOnE01/hqdefault.jpg",
        publishedAt: null,
      },
    });
  });

  it("TikTok: author_unique_id is the handle", async () => {
    const url = "https://www.tiktok.com/@creator.studio/video/7312345678901234567";
    const e = await fetchEvidence(url, options);
    expect(last().path).toBe("/tiktok/oembed");
    expect(e).toMatchObject({
      status: "ok",
      record: {
        platform: "tiktok",
        authorHandle: "creator.studio",
        caption:
          "Launch day! The Milestone app gets creators paid per milestone. #MilestoneLaunch #ad @milestone.app",
        mediaType: "video",
      },
    });
  });

  it("X: the post's text from the embed HTML (tags stripped, entities decoded), date and handle", async () => {
    const url = "https://x.com/creatorstudio/status/1861234567890123456";
    const e = await fetchEvidence(url, options);
    expect(last().path).toBe("/x/oembed");
    expect(last().params.get("omit_script")).toBe("1");
    expect(e).toMatchObject({
      status: "ok",
      record: {
        platform: "x",
        canonicalUrl: "https://twitter.com/creatorstudio/status/1861234567890123456",
        authorHandle: "creatorstudio",
        caption:
          "Launch day! The Milestone app gets creators paid per milestone. #MilestoneLaunch #ad @milestone & friends\nmilestone.example/launch",
        mediaType: "post",
        publishedAt: "2026-11-20T00:00:00.000Z",
      },
    });
  });

  it("Instagram with a token: the Graph oEmbed, the token sent, author_name as the handle", async () => {
    const url = "https://www.instagram.com/reel/C0ffee123/";
    const e = await fetchEvidence(url, options);
    expect(last().path).toBe("/instagram/oembed");
    expect(last().params.get("access_token")).toBe("123|client-token");
    expect(e).toMatchObject({
      status: "ok",
      record: {
        platform: "instagram",
        authorHandle: "creator.studio",
        caption: expect.stringContaining("#MilestoneLaunch #ad @milestone.app"),
        mediaType: "video",
      },
    });
  });

  it("Instagram without a token is read as a plain page", () => {
    const noToken = { ...options, env: parseEnv({ NODE_ENV: "test" }) };
    expect(adapterFor(new URL("https://www.instagram.com/reel/C0ffee123/"), noToken).platform).toBe(
      "web",
    );
  });

  it("any other page: OpenGraph tags (not text inside scripts), canonical URL, twitter:creator", async () => {
    const e = await fetchEvidence(`${origin}/web/post`, options);
    expect(e).toMatchObject({
      status: "ok",
      record: {
        platform: "web",
        canonicalUrl: "https://blog.creator.example/posts/launch-review",
        authorHandle: "creatorstudio",
        caption:
          "Launch review: the Milestone app\nI tried Milestone for a week. #MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
        mediaType: "article",
        thumbnailUrl: "https://blog.creator.example/img/launch.jpg",
        publishedAt: "2026-11-20T09:30:00.000Z",
      },
    });
  });

  it.each([
    ["youtube", "https://www.youtube.com/watch?v=gone"],
    ["tiktok", "https://www.tiktok.com/@a/video/gone"],
    ["x", "https://x.com/a/status/gone"],
    ["instagram", "https://www.instagram.com/p/gone/"],
  ])("%s: a 404 from the platform is a deleted post", async (platform, url) => {
    const e = await fetchEvidence(url, options);
    expect(e).toMatchObject({ status: "deleted", platform, url });
  });

  it("a page behind a login is unreachable, with the reason", async () => {
    const e = await fetchEvidence(`${origin}/web/private`, options);
    expect(e.status).toBe("unreachable");
    expect(e.status !== "ok" && e.error).toMatch(/private or restricted/);
  });

  it("a platform that cannot be reached is unreachable; a private address is blocked", async () => {
    const down = await fetchEvidence("https://www.youtube.com/watch?v=x", {
      ...options,
      endpoints: { youtube: "http://127.0.0.1:1/oembed" },
      allowHosts: ["127.0.0.1:1"],
    });
    expect(down.status).toBe("unreachable");
    const blocked = await fetchEvidence("http://10.1.2.3/post", options);
    expect(blocked.status).toBe("blocked");
  });

  it("no URL, no fetch: malformed and non-web URLs are unsupported", async () => {
    const before = seen.length;
    expect((await fetchEvidence("not a url", options)).status).toBe("unsupported");
    expect((await fetchEvidence("javascript:alert(1)", options)).status).toBe("unsupported");
    expect(seen.length).toBe(before);
  });

  it("the content hash is keccak256 of the canonical record without fetchedAt", async () => {
    const url = "https://www.youtube.com/watch?v=Mi1eStOnE01";
    const a = await fetchEvidence(url, options);
    const b = await fetchEvidence(url, options);
    if (a.status !== "ok" || b.status !== "ok") throw new Error("not ok");
    const { fetchedAt: _f, ...content } = a.record;
    expect(a.contentHash).toBe(evidenceContentHash(content));
    expect(a.contentHash).toBe(b.contentHash);
    expect(canonicalJson(content)).not.toContain("fetchedAt");
  });
});
