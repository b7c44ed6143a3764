import { type Address, getAddress, isAddress } from "viem";
import { z } from "zod";
import { profileTypes } from "@/db/schema";
import { iso } from "@/lib/api/fields";
import { userSchema } from "@/lib/auth/users";

// Request schemas of the auth and dev-identity endpoints.

export const profileTypeSchema = z.enum(profileTypes);

/** A 20-byte hex address in any letter case, normalised to EIP-55. */
export const addressSchema = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), "must be a 0x-prefixed 20-byte hex address")
  .meta({ examples: ["0x5B38Da6a701c568545dCfcB03FcB875f56beddC4"] })
  .transform((v): Address => getAddress(v));

/** POST /api/faucet/drip and /api/faucet/test-usdc: the wallet to send to. */
export const addressBody = z.object({ address: addressSchema });

export const sessionBody = z.object({
  idToken: z.string().min(1).max(16_384),
  /** Applies only when this login creates the user (default "creator"). */
  profileType: profileTypeSchema.optional(),
});

export const roleBody = z.object({ profileType: profileTypeSchema });

export const walletNonceQuery = z.object({
  /** When given, the response carries a ready-to-sign message for this address. */
  address: addressSchema.optional(),
  chainId: z.coerce.number().int().positive().optional(),
});

export const walletLinkBody = z.object({
  address: addressSchema,
  message: z.string().min(1).max(4_096),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, "must be a 0x-prefixed hex signature")
    .max(4_096),
});

export const devIdTokenBody = z.object({
  email: z.email().max(320),
  /** Put the subject's embedded wallet (derived by the dev provider) in the token. */
  embeddedWallet: z.boolean().optional(),
  /**
   * Refused: the dev provider never vouches for an address the caller names (anyone could
   * claim anyone's wallet). Prove an address by signature (POST /api/auth/wallet) instead.
   */
  walletAddress: z
    .never({
      error:
        "the dev identity provider does not sign an address you name: use embeddedWallet, or prove a wallet by signature (POST /api/auth/wallet)",
    })
    .optional(),
});

export const sessionResponse = z.object({
  user: userSchema,
  token: z.string().describe("The session token, for Authorization: Bearer"),
  expiresAt: iso,
});
export const signedOutResponse = z.object({ signedOut: z.literal(true) });
