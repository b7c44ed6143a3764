import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { getDb } from "@/db/client";
import { type ProfileType, type User, users } from "@/db/schema";
import { createSessionToken } from "@/lib/auth/session";

// Test users are real rows with real session tokens (the same tokens sign-in issues).

export type TestUser = { user: User; token: string };

/**
 * A user; a creator gets a proven wallet of its own (a fresh address) unless
 * `walletAddress: null` asks for none — the escrow needs one to take a deal.
 */
export async function makeUser(
  profileType: ProfileType,
  opts: { email?: string; walletAddress?: string | null } = {},
): Promise<TestUser> {
  const db = await getDb();
  const id = randomUUID();
  const walletAddress =
    opts.walletAddress === undefined && profileType === "creator"
      ? privateKeyToAccount(generatePrivateKey()).address
      : (opts.walletAddress ?? null);
  const [user] = await db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: id,
      email: opts.email ?? `${profileType}-${id.slice(0, 8)}@test.invalid`,
      profileType,
      walletAddress,
      walletSource: walletAddress ? "signature" : null,
    })
    .returning();
  if (!user) throw new Error("no user");
  const { token } = await createSessionToken(user.id);
  return { user, token };
}

export async function setRole(u: TestUser, profileType: ProfileType): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ profileType }).where(eq(users.id, u.user.id));
}
