import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { getUserById, setDisplayName } from "@/db/queries/users";
import { profileTypes, type User } from "@/db/schema";
import { notFound } from "@/lib/errors";

// The caller's public profile: the display name the other party sees on deals (an
// organisation's name, a creator's) instead of the e-mail address.

export const profileSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    profileType: z.enum(profileTypes),
    displayName: z.string().nullable().describe("null: none set (the e-mail is shown)"),
  })
  .meta({ id: "Profile" });
export const profileResponse = z.object({ profile: profileSchema });
export type ProfileJson = z.infer<typeof profileSchema>;

export const profilePatchBody = z.object({
  /** 1..80 visible characters, trimmed; null or "" removes it. */
  displayName: z
    .string()
    .trim()
    .max(80, "must be at most 80 characters")
    .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s), "must not contain control characters")
    .nullable()
    .transform((s) => (s ? s : null)),
});
export type ProfilePatch = z.infer<typeof profilePatchBody>;

const profileJson = (u: User): ProfileJson => ({
  id: u.id,
  email: u.email,
  profileType: u.profileType,
  displayName: u.displayName,
});

export async function getProfile(db: Db, caller: Pick<User, "id">): Promise<ProfileJson> {
  const row = await getUserById(db, caller.id);
  if (!row) throw notFound("User");
  return profileJson(row);
}

export async function updateProfile(
  db: Db,
  caller: Pick<User, "id">,
  patch: ProfilePatch,
): Promise<ProfileJson> {
  const row = await setDisplayName(db, { userId: caller.id, displayName: patch.displayName });
  if (!row) throw notFound("User");
  return profileJson(row);
}
