import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { importJWK, SignJWT } from "jose";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { POST as idTokenPOST } from "@/app/api/dev/id-token/route";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import {
  DEV_IDP_AUDIENCE,
  devEmbeddedWallet,
  devEmbeddedWalletKey,
  devIdpIssuer,
  devIdpJwks,
  devIdpKeyFile,
  devIdpSubject,
} from "@/lib/auth/dev-idp";
import { signIn, uniqueEmail } from "../helpers/auth";
import { call } from "../helpers/http";

// Creators without a browser wallet: the dev identity provider stands in for a provider's
// embedded wallet. It derives one wallet per subject (server-held key) and, when asked, puts
// that address in the token, which sign-in links as proven. It never signs an address the
// caller names, and a dev token carrying any other address links nothing.

describe("the dev provider's embedded wallet", () => {
  it("is linked at sign-in when asked for: one deterministic wallet per subject", async () => {
    const email = uniqueEmail("embedded");
    const { user } = await signIn({ email, embeddedWallet: true });
    const expected = devEmbeddedWallet(devIdpSubject(email));
    expect(user.walletAddress).toBe(expected);
    expect(privateKeyToAccount(devEmbeddedWalletKey(devIdpSubject(email))).address).toBe(expected);
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, user.id));
    expect(row?.walletSource).toBe("identity_token");
    // the same subject always gets the same wallet; another subject another one
    expect(devEmbeddedWallet(devIdpSubject(email.toUpperCase()))).toBe(expected);
    expect(devEmbeddedWallet(devIdpSubject(uniqueEmail()))).not.toBe(expected);
  });

  it("does not replace a wallet the creator already proved", async () => {
    const email = uniqueEmail("has-wallet");
    const first = await signIn({ email });
    const proven = privateKeyToAccount(generatePrivateKey()).address;
    await (await getDb())
      .update(users)
      .set({ walletAddress: proven, walletSource: "signature" })
      .where(eq(users.id, first.user.id));
    const again = await signIn({ email, embeddedWallet: true });
    expect(again.user.walletAddress).toBe(proven);
  });

  it("refuses to sign an address the caller names (400, nothing issued)", async () => {
    const res = await call(idTokenPOST, {
      body: {
        email: uniqueEmail(),
        walletAddress: privateKeyToAccount(generatePrivateKey()).address,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toEqual(["walletAddress"]);
    expect(res.body.idToken).toBeUndefined();
  });

  it("a token the dev key signed with any other address links nothing", async () => {
    // Sign with the dev provider's own key (only the server holds it) a claim naming someone
    // else's embedded wallet, or a random address: sign-in verifies the token, signs the user
    // in, and still links neither — only the subject's own derived wallet counts.
    const jwk = JSON.parse(readFileSync(devIdpKeyFile(), "utf8"));
    const key = await importJWK(jwk, "ES256");
    const { keys } = await devIdpJwks();
    for (const address of [
      devEmbeddedWallet(devIdpSubject(uniqueEmail("victim"))),
      privateKeyToAccount(generatePrivateKey()).address,
    ]) {
      const email = uniqueEmail("attacker");
      const token = await new SignJWT({ email, email_verified: true, wallet_address: address })
        .setProtectedHeader({ alg: "ES256", kid: keys[0]?.kid, typ: "JWT" })
        .setIssuer(devIdpIssuer())
        .setAudience(DEV_IDP_AUDIENCE)
        .setSubject(devIdpSubject(email))
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(key);
      const res = await call(sessionPOST, { body: { idToken: token } });
      expect(res.status).toBe(200);
      expect(res.body.user.walletAddress).toBeNull();
    }
  });
});
