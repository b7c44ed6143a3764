import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import type { User } from "@/db/schema";
import { accountIdentities, isPlaceholderEmail } from "@/lib/auth/accounts";
import { EMAIL_LINK_ISSUER } from "@/lib/auth/email-link";
import { SIWE_ISSUER } from "@/lib/auth/siwe-sign-in";
import { signInMethods } from "@/lib/auth/web-sign-in";

// GET /api/auth/identities: the ways the signed-in account can sign in, and which ones it can
// still link from its profile (lib/auth/accounts.ts has the rules).

export const signInMethodSchema = z
  .object({
    kind: z
      .enum(["oidc", "email", "wallet", "token"])
      .describe(
        "oidc: the configured OpenID provider; email: an e-mail link; wallet: Sign in with Ethereum; token: an ID token from another issuer (API only)",
      ),
    label: z.string().describe("What the profile calls it, e.g. 'Google' or 'E-mail link'"),
    detail: z.string().nullable().describe("The e-mail or the wallet it proves, when known"),
    first: z.boolean().describe("The way the account was made (the others were added later)"),
    linkedAt: z.iso
      .datetime()
      .nullable()
      .describe("When it was added; null for what follows from the account itself"),
  })
  .meta({ id: "SignInMethod" });

export const identitiesResponse = z.object({
  methods: z.array(signInMethodSchema),
  canLink: z.object({
    oidc: z
      .string()
      .nullable()
      .describe("The OpenID provider's name when it is configured and not linked yet"),
    email: z
      .boolean()
      .describe("An e-mail address can be added (accounts made by a wallet alone have none)"),
  }),
});
export type IdentitiesJson = z.infer<typeof identitiesResponse>;
type MethodJson = z.infer<typeof signInMethodSchema>;

const shortAddress = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

export async function accountSignInMethods(db: DbOrTx, user: User): Promise<IdentitiesJson> {
  const configured = signInMethods();
  const methods: MethodJson[] = (await accountIdentities(db, user)).map((i) => {
    const base = { first: i.first, linkedAt: i.linkedAt.toISOString() };
    if (i.issuer === EMAIL_LINK_ISSUER)
      return { ...base, kind: "email", label: "E-mail link", detail: i.email };
    if (i.issuer === SIWE_ISSUER)
      return {
        ...base,
        kind: "wallet",
        label: "Sign in with Ethereum",
        detail: shortAddress(i.subject),
      };
    if (configured.oidc && i.issuer === configured.oidc.issuer)
      return { ...base, kind: "oidc", label: configured.oidc.name, detail: i.email };
    return { ...base, kind: "token", label: hostOf(i.issuer), detail: i.email };
  });
  // What follows from the account itself: links to its e-mail, and its proven wallet.
  if (configured.email && !isPlaceholderEmail(user.email) && !methods.some(isEmailTo(user.email)))
    methods.push({
      kind: "email",
      label: "E-mail link",
      detail: user.email,
      first: false,
      linkedAt: null,
    });
  if (configured.siwe && user.walletAddress && !methods.some((m) => m.kind === "wallet"))
    methods.push({
      kind: "wallet",
      label: "Sign in with Ethereum",
      detail: shortAddress(user.walletAddress),
      first: false,
      linkedAt: null,
    });
  return {
    methods,
    canLink: {
      oidc:
        configured.oidc && !methods.some((m) => m.kind === "oidc") ? configured.oidc.name : null,
      email: configured.email && isPlaceholderEmail(user.email),
    },
  };
}

const isEmailTo = (email: string) => (m: MethodJson) =>
  m.kind === "email" && m.detail?.toLowerCase() === email.toLowerCase();

function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}
