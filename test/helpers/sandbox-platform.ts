import http from "node:http";
import type { AddressInfo } from "node:net";
import * as handlesRoute from "@/app/api/profile/handles/route";
import * as verifyHandleRoute from "@/app/api/profile/handles/verify/route";
import * as oembedRoute from "@/app/api/social/oembed/route";
import * as postRoute from "@/app/api/social/posts/[id]/route";
import * as postsRoute from "@/app/api/social/posts/route";
import { resetEnvCache } from "@/lib/env";
import { call } from "./http";
import type { TestUser } from "./users";

// The sandbox platform for tests that call route handlers directly: its oEmbed endpoint is
// served over real HTTP by a local server in this process (the verifier reads it through the
// safe fetcher, as it does the app's own origin), and SANDBOX_ORIGIN points there.

let origin: Promise<string> | undefined;

/** Starts the sandbox's oEmbed server once per test process; returns its origin. */
export function sandboxPlatform(): Promise<string> {
  origin ??= (async () => {
    const server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? "/", "http://sandbox.invalid");
      if (url.pathname !== "/api/social/oembed") {
        res.writeHead(404).end();
        return;
      }
      const answer = await oembedRoute.GET(new Request(`http://sandbox.invalid${req.url}`));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    server.unref();
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.SANDBOX_ORIGIN = at;
    process.env.SANDBOX_SOCIAL = "1";
    resetEnvCache();
    return at;
  })();
  return origin;
}

/** The sandbox handle a test user publishes as. */
export const sandboxHandleOf = (u: TestUser) => `u${u.user.id.replaceAll("-", "").slice(0, 12)}`;

type HandleRow = {
  platform: string;
  handle: string;
  verified: boolean;
  verification: { code: string; expired: boolean } | null;
};

/**
 * Proves `user` owns their sandbox handle the way a creator does: declares it (unless it is
 * already), publishes a post carrying its one-time code, asks for the check, then deletes that
 * post (the handle stays verified). Does nothing when it is verified already, or when the user
 * publishes as another sandbox handle (publishing as this one is then refused anyway).
 */
export async function verifySandboxHandle(
  user: TestUser,
  handle = sandboxHandleOf(user),
): Promise<void> {
  await sandboxPlatform();
  const listed = await call(handlesRoute.GET, { token: user.token });
  if (listed.status !== 200) throw new Error(`handles: ${JSON.stringify(listed.body)}`);
  let row = (listed.body.handles as HandleRow[]).find((h) => h.platform === "sandbox");
  if (row?.verified || (row && row.handle !== handle)) return;
  if (!row?.verification || row.verification.expired) {
    const put = await call(handlesRoute.PUT, {
      method: "PUT",
      token: user.token,
      body: { platform: "sandbox", handle },
    });
    if (put.status !== 200) throw new Error(`declare handle: ${JSON.stringify(put.body)}`);
    row = put.body.handle as HandleRow;
  }
  const code = row.verification?.code;
  if (!code) throw new Error(`no verification code for @${handle}`);
  const proof = await publishOnSandbox(user, `Verifying @${handle} for Milestone: ${code}`, {
    handle,
    verify: false,
  });
  const checked = await call(verifyHandleRoute.POST, {
    token: user.token,
    body: { platform: "sandbox", handle, postUrl: proof.url },
  });
  if (checked.status !== 200 || !checked.body.handle.verified)
    throw new Error(`verify handle: ${JSON.stringify(checked.body)}`);
  const removed = await call(postRoute.DELETE, {
    method: "DELETE",
    params: { id: proof.id },
    token: user.token,
  });
  if (removed.status !== 204) throw new Error(`delete proof post: ${JSON.stringify(removed.body)}`);
}

/**
 * Publishes a post on the sandbox as `user`; returns its URL. The user's sandbox handle is
 * verified first (verifySandboxHandle), as a creator who is paid for their posts has done;
 * `verify: false` publishes with the handle only declared (by this first post, if new).
 */
export async function publishOnSandbox(
  user: TestUser,
  caption: string,
  opts: { handle?: string; mediaType?: string; verify?: boolean; paidPartnership?: boolean } = {},
): Promise<{ url: string; id: string }> {
  await sandboxPlatform();
  const handle = opts.handle ?? sandboxHandleOf(user);
  if (opts.verify !== false) await verifySandboxHandle(user, handle);
  const res = await call(postsRoute.POST, {
    token: user.token,
    body: { handle, caption, mediaType: opts.mediaType, paidPartnership: opts.paidPartnership },
  });
  if (res.status !== 201) throw new Error(`publish: ${JSON.stringify(res.body)}`);
  return { url: res.body.post.url, id: res.body.post.id };
}
