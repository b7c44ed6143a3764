import http from "node:http";
import type { AddressInfo } from "node:net";
import * as oembedRoute from "@/app/api/social/oembed/route";
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

/** Publishes a post on the sandbox as `user`; returns its URL. */
export async function publishOnSandbox(
  user: TestUser,
  caption: string,
  opts: { handle?: string; mediaType?: string } = {},
): Promise<{ url: string; id: string }> {
  await sandboxPlatform();
  const res = await call(postsRoute.POST, {
    token: user.token,
    body: { handle: opts.handle ?? sandboxHandleOf(user), caption, mediaType: opts.mediaType },
  });
  if (res.status !== 201) throw new Error(`publish: ${JSON.stringify(res.body)}`);
  return { url: res.body.post.url, id: res.body.post.id };
}
