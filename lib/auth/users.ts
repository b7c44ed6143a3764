import { getAddress } from "viem";
import { z } from "zod";
import { profileTypes, type User } from "@/db/schema";
import { address } from "@/lib/api/fields";

// The one place a user row becomes the contract's User JSON.

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    profileType: z.enum(profileTypes),
    walletAddress: address.nullable().describe("EIP-55; null until a wallet is proven"),
  })
  .meta({ id: "User" });
export const userResponse = z.object({ user: userSchema });
export type UserJson = z.infer<typeof userSchema>;

export function toUserJson(user: User): UserJson {
  return {
    id: user.id,
    email: user.email,
    profileType: user.profileType,
    walletAddress: user.walletAddress ? getAddress(user.walletAddress) : null,
  };
}
