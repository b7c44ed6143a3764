import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type ProfileType, type User, users } from "@/db/schema";
import { createSessionToken } from "@/lib/auth/session";

// Test users are real rows with real session tokens (the same tokens sign-in issues).

export type TestUser = { user: User; token: string };

export async function makeUser(
  profileType: ProfileType,
  opts: { email?: string; walletAddress?: string } = {},
): Promise<TestUser> {
  const db = await getDb();
  const id = randomUUID();
  const [user] = await db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: id,
      email: opts.email ?? `${profileType}-${id.slice(0, 8)}@test.invalid`,
      profileType,
      walletAddress: opts.walletAddress ?? null,
      walletSource: opts.walletAddress ? "signature" : null,
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
