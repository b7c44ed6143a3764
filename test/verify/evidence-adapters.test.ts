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
import { evidenceJson } from "@/lib/verify/evidence/read";
import { webUrl } from "@/lib/verify/evidence/urls";
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

/** What a hostile page or platform answers, by name: set by a test before it fetches. */
const hostile: Record<string, { tags?: Record<string, string>; link?: string; json?: object }> = {};
// Only quotes are escaped: the entity-encoded cases below reach the page as written.
const attr = (v: string) => v.replace(/"/g, "&quot;");
const hostilePage = (tags: Record<string, string>, link?: string) =>
  [
    "<!doctype html><html><head><title>Hostile</title>",
    link === undefined ? "" : `<link rel="canonical" href="${attr(link)}">`,
    ...Object.entries(tags).map(([k, v]) => `<meta property="${k}" content="${attr(v)}">`),
    "</head><body>post</body></html>",
  ].join("\n");

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://fake");
    seen.push({ path: u.pathname, params: u.searchParams });
    if (u.searchParams.get("url")?.includes(DELETED) || u.pathname.includes(DELETED)) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const platform = u.pathname.split("/")[1] ?? "";
    if (u.pathname === "/api/social/oembed") {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(hostile.sandbox?.json ?? {}));
      return;
    }
    if (platform === "hostile") {
      const answer = hostile[u.pathname.split("/")[2] ?? ""];
      if (answer?.json) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer.json));
        return;
      }
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(hostilePage(answer?.tags ?? {}, answer?.link));
      return;
    }
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

// A hostile page's URLs are its author's words: shown as links and images, so only absolute
// http(s) URLs are kept. The bad ones, as a page can write them (raw or entity-encoded).
const badUrls: [string, string][] = [
  ["javascript:", "javascript:alert(document.cookie)"],
  ["mixed-case JaVaScRiPt:", "JaVaScRiPt:alert(1)"],
  ["whitespace-prefixed javascript:", "   javascript:alert(1)"],
  ["a control character before javascript:", "\u0001javascript:alert(1)"],
  ["data:", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
  ["data: image", "data:image/svg+xml,<svg onload=alert(1)>"],
  ["vbscript:", "vbscript:msgbox(1)"],
  ["VBScript: mixed case", "VBScript:MsgBox(1)"],
  ["file:", "file:///etc/passwd"],
  ["ftp:", "ftp://files.example/x.jpg"],
  ["an URL with credentials", "https://user:pw@evil.example/x.jpg"],
  ["junk that is no URL", "http://"],
];
/** Bad URLs only a page can write: HTML entities in an attribute are decoded before use. */
const entityEncoded: [string, string][] = [
  ["a javascript: with an entity-encoded tab inside", "java&#x09;script:alert(1)"],
  ["an entity-encoded javascript:", "&#106;avascript:alert(1)"],
  ["an entity-encoded leading newline", "&#10;javascript:alert(1)"],
];

describe("evidence URLs are sanitised: only absolute http(s) URLs are kept", () => {
  it.each([...badUrls, ...entityEncoded].map(([name, bad], i) => [name, bad, i] as const))(
    "OpenGraph: %s in og:url and og:image → the page's own URL and no thumbnail",
    async (_name, bad, i) => {
      const name = `og-${i}`;
      hostile[name] = { tags: { "og:url": bad, "og:image": bad, "twitter:image": bad } };
      // The page's own URL: what the canonical URL falls back to.
      const page = `${origin}/hostile/${name}`;
      const e = await fetchEvidence(page, options);
      if (e.status !== "ok") throw new Error(`not read: ${JSON.stringify(e)}`);
      expect(e.record.canonicalUrl).toBe(page);
      expect(e.record.thumbnailUrl).toBeNull();
      expect(JSON.stringify(e.record)).not.toMatch(/javascript|vbscript|data:|file:|ftp:|user:pw/i);
    },
  );

  it("OpenGraph: a bad og:url falls back to <link rel=canonical>, a bad og:image to twitter:image", async () => {
    hostile.fallback = {
      tags: {
        "og:url": "javascript:alert(1)",
        "og:image": "data:image/png;base64,AAAA",
        "twitter:image": "https://cdn.example/card.jpg",
      },
      link: "https://blog.example/posts/1",
    };
    const e = await fetchEvidence(`${origin}/hostile/fallback`, options);
    expect(e).toMatchObject({
      status: "ok",
      record: {
        canonicalUrl: "https://blog.example/posts/1",
        thumbnailUrl: "https://cdn.example/card.jpg",
      },
    });
  });

  it("OpenGraph: relative og:url and og:image are resolved against the page", async () => {
    hostile.relative = { tags: { "og:url": "/posts/launch?ref=og", "og:image": "img/a.jpg" } };
    const e = await fetchEvidence(`${origin}/hostile/relative`, options);
    expect(e).toMatchObject({
      status: "ok",
      record: {
        canonicalUrl: `${origin}/posts/launch?ref=og`,
        thumbnailUrl: `${origin}/hostile/img/a.jpg`,
      },
    });
  });

  it.each(badUrls.map(([name, bad], i) => [name, bad, i] as const))(
    "oEmbed: %s as thumbnail_url, url and author_url → dropped",
    async (_name, bad, i) => {
      // An oEmbed answer is JSON: entities are not decoded there, so the raw text is sent.
      const name = `oembed-${i}`;
      hostile[name] = {
        json: {
          type: "video",
          title: "Launch #ad",
          html: '<blockquote><p>Launch #ad</p>&mdash; X (@x) <a href="https://x.com">November 20, 2026</a></blockquote>',
          url: bad,
          thumbnail_url: bad,
          author_url: bad,
        },
      };
      const endpoint = `${origin}/hostile/${name}`;
      const postUrl = "https://x.com/creatorstudio/status/1861234567890123456";
      for (const [platform, url] of [
        ["x", postUrl],
        ["youtube", "https://www.youtube.com/watch?v=Mi1eStOnE01"],
      ] as const) {
        const e = await fetchEvidence(url, { ...options, endpoints: { [platform]: endpoint } });
        if (e.status !== "ok") throw new Error(`not read: ${JSON.stringify(e)}`);
        expect(e.record.platform).toBe(platform);
        expect(e.record.canonicalUrl).toBe(url);
        expect(e.record.thumbnailUrl).toBeNull();
        expect(e.record.authorHandle).toBeNull();
      }
    },
  );

  it("the sandbox's oEmbed answer goes through the same check", async () => {
    hostile.sandbox = {
      json: {
        url: "javascript:alert(1)",
        thumbnail_url: "data:image/png;base64,AAAA",
        author_name: "creator",
        title: "Launch #ad",
      },
    };
    const sandboxEnv = parseEnv({
      NODE_ENV: "test",
      SANDBOX_SOCIAL: "1",
      SANDBOX_ORIGIN: origin,
    });
    // The sandbox adapter asks `${origin}/api/social/oembed`, which serves the hostile answer.
    const postUrl = `${origin}/social/p/0b5a3c2e-8f8e-4d55-9d6e-1c8f3a0b2d4e`;
    const e = await fetchEvidence(postUrl, {
      ...options,
      env: sandboxEnv,
      endpoints: { sandbox: origin },
    });
    expect(e).toMatchObject({
      status: "ok",
      record: { platform: "sandbox", canonicalUrl: postUrl, thumbnailUrl: null },
    });
  });

  it("what the API shows of a stored row is checked again (rows stored before the check)", () => {
    const row = {
      id: "00000000-0000-0000-0000-000000000001",
      milestoneId: "00000000-0000-0000-0000-000000000002",
      revision: 1,
      status: "ok",
      platform: "web",
      url: "https://blog.example/posts/1",
      canonicalUrl: "JaVaScRiPt:alert(1)",
      authorHandle: null,
      caption: "hi",
      mediaType: null,
      thumbnailUrl: " data:image/svg+xml,<svg onload=alert(1)>",
      publishedAt: null,
      fetchedAt: new Date("2026-11-20T00:00:00Z"),
      contentHash: "0x00",
      error: null,
    } as unknown as Parameters<typeof evidenceJson>[0];
    expect(evidenceJson(row, null)).toMatchObject({ canonicalUrl: null, thumbnailUrl: null });
    const good = { ...row, canonicalUrl: "https://blog.example/posts/1", thumbnailUrl: null };
    expect(evidenceJson(good, null)).toMatchObject({
      canonicalUrl: "https://blog.example/posts/1",
      thumbnailUrl: null,
    });
  });

  it("webUrl keeps absolute http(s) URLs only; relative ones only with a base", () => {
    for (const [, bad] of badUrls) {
      expect(webUrl(bad)).toBeNull();
      expect(webUrl(bad, "https://page.example/p/1")).toBeNull();
    }
    expect(webUrl(" https://ok.example/a b ")).toBe("https://ok.example/a%20b");
    expect(webUrl("HTTP://OK.example/")).toBe("http://ok.example/");
    expect(webUrl("/img.jpg")).toBeNull();
    expect(webUrl("not a url at all")).toBeNull();
    expect(webUrl("/img.jpg", "https://page.example/p/1")).toBe("https://page.example/img.jpg");
    expect(webUrl(`https://ok.example/${"a".repeat(3000)}`)).toBeNull();
    expect(webUrl(42)).toBeNull();
    expect(webUrl(null)).toBeNull();
  });
});
