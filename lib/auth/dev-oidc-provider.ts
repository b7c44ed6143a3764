import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Interaction } from "oidc-provider";
import { emailFrom } from "@/lib/auth/claims";
import {
  DEV_IDP_AUDIENCE,
  DEV_IDP_SIGNING_ALG,
  devEmbeddedWallet,
  devIdpClientSecret,
  devIdpRedirectUri,
  devIdpSigningJwk,
  devIdpSubject,
} from "@/lib/auth/dev-idp";
import { devIdpUrl, type Env, env } from "@/lib/env";

// The embedded setup's identity provider: panva's oidc-provider (certified by the OpenID
// Foundation) on its own port, with a demo login page (any e-mail, no password) and a
// consent page. The app signs people in through it exactly as through Google or Auth0:
// redirect, log in, consent, callback with an authorization code (PKCE required), ID token
// signed with the dev key (lib/auth/dev-idp.ts) and checked by the app's usual verifier.
// Started by scripts/dev.ts (and so by the e2e web server) and by tests; never by `next`.
//
// Scopes: `openid email` and `wallet`, whose claim (IDP_WALLET_CLAIM) carries the embedded
// wallet the provider derives for the subject when the person ticks "Use an embedded wallet".

export type DevOidcProvider = { issuer: string; close(): Promise<void> };

type DemoAccount = { email: string; embeddedWallet: boolean };

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1c1f24}
  main{max-width:26rem;margin:3rem auto;padding:0 1rem}
  .card{background:#fff;border:1px solid #dfe2e7;border-radius:12px;padding:1.5rem;display:grid;gap:1rem}
  .brand{font-weight:700;letter-spacing:.02em;color:#4a5260;font-size:.85rem;text-transform:uppercase}
  h1{font-size:1.35rem;margin:0}
  p{margin:0}
  .muted{color:#5b6472;font-size:.9rem}
  label{display:grid;gap:.35rem;font-weight:600}
  label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:500}
  label.check input{margin-top:.3rem}
  input[type=email]{font:inherit;padding:.6rem .7rem;border:1px solid #b9c0cb;border-radius:8px;width:100%}
  .row{display:flex;gap:.75rem;flex-wrap:wrap}
  button{font:inherit;font-weight:600;padding:.6rem 1.1rem;border-radius:8px;border:1px solid #1f4fd1;background:#1f4fd1;color:#fff;cursor:pointer}
  button.secondary{background:#fff;color:#1f4fd1}
  ul{margin:0;padding-left:1.2rem}
  code{font-size:.85em;word-break:break-all}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Milestone demo ID</title><style>${STYLE}</style></head><body><main><div class="card"><div class="brand">Milestone demo ID</div>${body}</div></main></body></html>`;
}

function loginPage(uid: string, hint: string | undefined): string {
  return page(
    "Sign in",
    `<h1>Sign in</h1>
<p class="muted">A demo identity provider: any e-mail address works, no password. A real deployment uses Google, Auth0 or any other OpenID provider instead.</p>
<form method="post" action="/interaction/${uid}/login" class="card" style="border:0;padding:0">
  <label>E-mail<input name="email" type="email" required autofocus autocomplete="email" value="${escapeHtml(hint ?? "")}"></label>
  <label class="check"><input type="checkbox" name="embeddedWallet" aria-describedby="embedded-hint"> No browser wallet? Use an embedded wallet</label>
  <p id="embedded-hint" class="muted">You get a wallet without installing an extension, and payouts can go to it straight away. In this demo its key is kept on this server.</p>
  <div class="row"><button type="submit">Sign in</button></div>
</form>`,
  );
}

function consentPage(uid: string, clientName: string, email: string, scopes: string[]): string {
  const asks = [
    "Your e-mail address",
    ...(scopes.includes("wallet") ? ["Your embedded wallet's address, if you chose one"] : []),
  ];
  return page(
    "Allow access",
    `<h1>Allow ${escapeHtml(clientName)} to sign you in?</h1>
<p class="muted">Signed in as <strong>${escapeHtml(email)}</strong></p>
<p>${escapeHtml(clientName)} will receive:</p>
<ul>${asks.map((a) => `<li>${escapeHtml(a)}</li>`).join("")}</ul>
<form method="post" action="/interaction/${uid}/confirm" class="row">
  <button type="submit">Allow</button>
  <button type="submit" class="secondary" formaction="/interaction/${uid}/abort">Cancel</button>
</form>`,
  );
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error("form too large");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.statusCode = status;
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("cache-control", "no-store");
  res.setHeader(
    "content-security-policy",
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  );
  res.end(html);
}

/**
 * Starts the provider on DEV_IDP_URL's port (or `port`: 0 = any free one; the issuer then
 * names the port it got). Its one client is the app: client id DEV_IDP_AUDIENCE, the secret
 * under DATA_DIR, redirect URI APP_URL/auth/callback/oidc.
 */
export async function startDevOidcProvider(
  opts: { port?: number; e?: Env } = {},
): Promise<DevOidcProvider> {
  const e = opts.e ?? env();
  const configured = new URL(devIdpUrl(e));
  const server: Server = createServer();
  // "localhost" may resolve to ::1 or 127.0.0.1: listen on both, as `next dev` does.
  const host = configured.hostname === "localhost" ? undefined : configured.hostname;
  const port = opts.port ?? Number(configured.port || 80);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const issuer = `${configured.protocol}//${configured.hostname}:${actual}`;

  const accounts = new Map<string, DemoAccount>();
  const accountFor = (sub: string): DemoAccount =>
    accounts.get(sub) ?? { email: sub.replace(/^dev\|/, ""), embeddedWallet: false };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_IDP_AUDIENCE,
        client_secret: devIdpClientSecret(),
        client_name: "Milestone",
        redirect_uris: [devIdpRedirectUri(e)],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: DEV_IDP_SIGNING_ALG,
      },
    ],
    jwks: { keys: [await devIdpSigningJwk()] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      wallet: [e.IDP_WALLET_CLAIM],
    },
    // The scopes' claims go in the ID token itself (the app reads the token, not userinfo).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      Interaction: 10 * 60,
      Session: 24 * 3600,
      Grant: 14 * 24 * 3600,
      AccessToken: 10 * 60,
      IdToken: 10 * 60,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    interactions: {
      url: (_ctx: unknown, interaction: Interaction) => `/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      async claims() {
        const account = accountFor(sub);
        return {
          sub,
          email: account.email,
          email_verified: true,
          ...(account.embeddedWallet ? { [e.IDP_WALLET_CLAIM]: devEmbeddedWallet(sub) } : {}),
        };
      },
    }),
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = "html";
      ctx.body = page(
        "Error",
        `<h1>Sign-in failed</h1><p>${escapeHtml(out.error ?? "error")}</p><p class="muted">${escapeHtml(out.error_description ?? "")}</p>`,
      );
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, action?: string) {
    const details = await provider.interactionDetails(req, res);
    const { uid, prompt, params, session } = details;
    if (!action && req.method === "GET") {
      if (prompt.name === "login")
        return sendHtml(res, 200, loginPage(uid, params.login_hint as string | undefined));
      const email = accountFor(session?.accountId ?? "").email;
      return sendHtml(
        res,
        200,
        consentPage(uid, "Milestone", email, String(params.scope ?? "").split(" ")),
      );
    }
    if (req.method !== "POST")
      return sendHtml(res, 405, page("Error", "<h1>Method not allowed</h1>"));
    if (action === "abort")
      return provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The person cancelled the sign-in." },
        { mergeWithLastSubmission: false },
      );
    if (action === "login" && prompt.name === "login") {
      const form = await formBody(req);
      const email = emailFrom(form.get("email"));
      if (!email) return sendHtml(res, 400, loginPage(uid, undefined));
      const accountId = devIdpSubject(email);
      accounts.set(accountId, {
        email: email.toLowerCase(),
        embeddedWallet: form.get("embeddedWallet") === "on",
      });
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId } },
        {
          mergeWithLastSubmission: false,
        },
      );
    }
    if (action === "confirm" && prompt.name === "consent" && session?.accountId) {
      const grant = new provider.Grant({
        accountId: session.accountId,
        clientId: params.client_id,
      });
      const missing = prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
      };
      grant.addOIDCScope(missing.missingOIDCScope?.join(" ") ?? String(params.scope ?? "openid"));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        {
          mergeWithLastSubmission: true,
        },
      );
    }
    return sendHtml(
      res,
      400,
      page("Error", "<h1>This step does not fit the sign-in in progress</h1>"),
    );
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?\/?$/.exec(
      new URL(req.url ?? "/", issuer).pathname,
    );
    if (!match) return callback(req, res);
    interaction(req, res, match[2]).catch((err: unknown) => {
      if (!res.headersSent)
        sendHtml(
          res,
          400,
          page(
            "Error",
            `<h1>Sign-in failed</h1><p class="muted">${escapeHtml(String((err as Error)?.message ?? err))}</p>`,
          ),
        );
    });
  });

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
