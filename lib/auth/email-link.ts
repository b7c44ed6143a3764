import { createHash } from "node:crypto";
import type { Adapter, AdapterUser, VerificationToken } from "next-auth/adapters";
import type { EmailConfig } from "next-auth/providers/email";
import type { DbOrTx } from "@/db/client";
import {
  insertSignInLink,
  recordSentMail,
  signInLinkExists,
  takeSignInLink,
} from "@/db/queries/sign-in";
import { findOtherUserByEmail } from "@/db/queries/users";
import type { ProfileType } from "@/db/schema";
import { accountForIdentity } from "@/lib/auth/accounts";
import { createSessionToken } from "@/lib/auth/session";
import type { SignInResult } from "@/lib/auth/sign-in";
import { devIdpEnabled, type Env, env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { configuredMailer } from "@/lib/notify/mailer";

// E-mail sign-in links, through next-auth's e-mail provider with the app's own mailer: the
// outbox (read at /dev/outbox) in the embedded setup, the HTTP mail provider in production.
// next-auth makes the token and keeps only its hash (through the adapter below, which stores
// nothing else: users are the app's own, found in lib/auth/web-sign-in.ts's signIn
// callback). A link is single-use (deleted when used), expires after LINK_TTL_SECONDS, and
// is bound to the browser that asked for it: that browser holds a random cookie nonce, the
// link row its hash, and the link opens only where the two match. Whoever opens it has
// proven they read that mailbox: it signs in as the account holding that e-mail, whatever
// method made it or linked it (lib/auth/accounts.ts), or a new one.

export const EMAIL_PROVIDER_ID = "email";
export const LINK_TTL_SECONDS = 15 * 60;
/** The cookie nonce binding links (and SIWE nonces) to the asking browser. */
export const BROWSER_NONCE_COOKIE = "milestone.sign-in-browser";
/** users.issuer of accounts first made by an e-mail link (subject: the address). */
export const EMAIL_LINK_ISSUER = "urn:milestone:email-link";
/** The identity an e-mail link proves: the mailbox, whatever the letter case. */
export const emailLinkIdentity = (email: string) => ({
  issuer: EMAIL_LINK_ISSUER,
  subject: email.trim().toLowerCase(),
});

export const browserHash = (nonce: string) => createHash("sha256").update(nonce).digest("hex");

/**
 * E-mail links are offered when a mailer can deliver them: the HTTP provider
 * (MAIL_TRANSPORT=http with MAIL_HTTP_URL), or the outbox while the dev identity provider
 * is on (a demo or development, where /dev/outbox shows the mail).
 */
export function emailLinksEnabled(e: Env = env()): boolean {
  if (e.MAIL_TRANSPORT === "http") return Boolean(e.MAIL_HTTP_URL);
  return devIdpEnabled(e);
}

/** Why a link did not open, when it did not (set by the adapter for the handler). */
export type LinkProblem = "link_expired" | "link_used" | "link_other_browser";

const SUBJECT = "Your Milestone sign-in link";

function mailText(url: string): string {
  return [
    "Open this link to sign in to Milestone:",
    "",
    url,
    "",
    `It works once, for ${LINK_TTL_SECONDS / 60} minutes, and only in the browser where you asked for it.`,
    "If you did not ask for it, ignore this e-mail: nobody can use it without that browser.",
  ].join("\n");
}

/** The e-mail provider: next-auth's e-mail flow, delivered by the app's mailer. */
export function emailProvider(db: DbOrTx, e: Env = env()): EmailConfig {
  return {
    id: EMAIL_PROVIDER_ID,
    type: "email",
    name: "Email",
    server: {},
    from: e.MAIL_FROM,
    maxAge: LINK_TTL_SECONDS,
    options: {},
    async sendVerificationRequest({ identifier, url }) {
      const mailer = configuredMailer(e);
      const id = crypto.randomUUID();
      try {
        await mailer.send({ id, to: identifier, subject: SUBJECT, text: mailText(url) });
      } catch (err) {
        throw new AppError("unavailable", "The sign-in e-mail could not be sent.", { cause: err });
      }
      // The outbox row is the mail in the embedded setup; a provider's copy keeps no link.
      // Its id is the one the provider got (Idempotency-Key), so the two can be matched.
      await recordSentMail(db, {
        id,
        userId: (await findOtherUserByEmail(db, { email: identifier }))?.id ?? null,
        to: identifier,
        subject: SUBJECT,
        body: mailer.name === "outbox" ? mailText(url) : "(a sign-in link, not kept)",
      });
    },
  };
}

/**
 * next-auth's adapter for the e-mail flow, bound to one request's browser nonce: it keeps
 * verification tokens (sign_in_links) and hands next-auth placeholder users (the signIn
 * callback finds or makes the app's user). `problem` records why a link was refused.
 */
export function linkAdapter(
  db: DbOrTx,
  browserNonce: string | undefined,
  problem: { value?: LinkProblem },
): Adapter {
  const placeholder = (email: string): AdapterUser => ({ id: email, email, emailVerified: null });
  return {
    createUser: async (user: AdapterUser) => ({
      ...placeholder(user.email),
      emailVerified: user.emailVerified,
    }),
    getUser: async () => null,
    getUserByEmail: async () => null,
    getUserByAccount: async () => null,
    updateUser: async (user) => ({ ...placeholder(user.email ?? ""), ...user }) as AdapterUser,
    linkAccount: async () => undefined,
    async createVerificationToken(token: VerificationToken) {
      if (!browserNonce) throw new Error("no browser nonce for the link");
      await insertSignInLink(db, {
        tokenHash: token.token,
        email: token.identifier,
        browserHash: browserHash(browserNonce),
        expiresAt: token.expires,
      });
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      const row = browserNonce
        ? await takeSignInLink(db, {
            tokenHash: token,
            email: identifier,
            browserHash: browserHash(browserNonce),
          })
        : null;
      if (row) {
        if (row.expiresAt.getTime() <= Date.now()) problem.value = "link_expired";
        return { identifier: row.email, token, expires: row.expiresAt };
      }
      problem.value = (await signInLinkExists(db, token)) ? "link_other_browser" : "link_used";
      return null;
    },
  };
}

/** The account an opened link signs in to: the one holding that e-mail, or a new one. */
export async function signInByEmail(
  db: DbOrTx,
  p: { email: string; profileType?: ProfileType },
): Promise<SignInResult> {
  const email = p.email.trim();
  const user = await accountForIdentity(db, {
    ...emailLinkIdentity(email),
    email,
    profileType: p.profileType ?? "creator",
    emailHeld: "use",
  });
  return { user, session: await createSessionToken(user.id, user.sessionVersion) };
}
