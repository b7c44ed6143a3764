import { describe, expect, it } from "vitest";
import * as postsRoute from "@/app/api/social/posts/route";
import { call } from "../helpers/http";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import { makeUser } from "../helpers/users";

// GET /api/social/posts was the one list answering everything at once (silently cut at
// 50): it now pages like every other list (test/api/reference.test.ts checks the query and
// nextCursor of all of them from the reference).

describe("GET /api/social/posts pages", () => {
  it("every post exactly once, newest first, while posts are published between pages", async () => {
    const creator = await makeUser("creator");
    const first = [];
    for (const n of [1, 2, 3]) first.push(await publishOnSandbox(creator, `Post ${n}`));
    const page = (query: string) =>
      call(postsRoute.GET, { token: creator.token, path: `/api/social/posts?${query}` });

    const one = await page("limit=2");
    expect(one.status).toBe(200);
    expect(one.body.posts.map((p: { id: string }) => p.id)).toEqual([first[2]?.id, first[1]?.id]);
    expect(one.body.nextCursor).toEqual(expect.any(String));

    const late = await publishOnSandbox(creator, "Published while paging");
    const two = await page(`limit=2&cursor=${encodeURIComponent(one.body.nextCursor)}`);
    expect(two.body.posts.map((p: { id: string }) => p.id)).toEqual([first[0]?.id]);
    expect(two.body.nextCursor).toBeNull();

    // the default page (20) has them all, the late one first
    const all = await page("");
    expect(all.body.posts.map((p: { id: string }) => p.id)).toEqual([
      late.id,
      ...first.map((p) => p.id).reverse(),
    ]);
    expect(all.body.nextCursor).toBeNull();
  });

  it("refuses a bad limit, a forged cursor and another list's cursor (400)", async () => {
    const creator = await makeUser("creator");
    await publishOnSandbox(creator, "One");
    await publishOnSandbox(creator, "Two");
    const get = (query: string) =>
      call(postsRoute.GET, { token: creator.token, path: `/api/social/posts?${query}` });
    for (const query of ["limit=0", "limit=101", "cursor=not-a-cursor"]) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const other = await makeUser("creator");
    await publishOnSandbox(other, "Theirs 1");
    await publishOnSandbox(other, "Theirs 2");
    const theirs = await call(postsRoute.GET, {
      token: other.token,
      path: "/api/social/posts?limit=1",
    });
    expect((await get(`cursor=${encodeURIComponent(theirs.body.nextCursor)}`)).status).toBe(400);
  });
});
