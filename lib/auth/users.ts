import { getAddress } from "viem";
import type { ProfileType, User } from "@/db/schema";

// The one place a user row becomes the contract's User JSON.

export type UserJson = {
  id: string;
  email: string;
  profileType: ProfileType;
  /** EIP-55 checksummed; null until a wallet is proven (signature or identity token). */
  walletAddress: string | null;
};

export function toUserJson(user: User): UserJson {
  return {
    id: user.id,
    email: user.email,
    profileType: user.profileType,
    walletAddress: user.walletAddress ? getAddress(user.walletAddress) : null,
  };
}
