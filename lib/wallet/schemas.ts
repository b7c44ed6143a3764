import { isAddress } from "viem";
import { z } from "zod";
import { txStatuses } from "@/db/schema";

// Request and response shapes of /api/wallet and /api/wallet/withdrawals (validated by the
// handlers, documented in the API reference from the same schemas).

const hexAddress = /^0x[0-9a-fA-F]{40}$/;

export const withdrawalBody = z.object({
  to: z
    .string()
    .trim()
    .regex(hexAddress, "must be a 0x-prefixed 20-byte hex address")
    // Mixed case carries an EIP-55 checksum, which must match; all lower or upper case has none.
    .refine(
      (v) => isAddress(v, { strict: true }),
      "the address's checksum does not match (a typo?)",
    )
    .describe(
      "Where the USDC goes: a wallet or an exchange deposit address on this network (EIP-55 checksum checked when mixed case)",
    ),
  amount: z
    .string()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, "must be a decimal amount of USDC with at most 6 decimals")
    .refine((v) => /[1-9]/.test(v), "must be more than 0")
    .describe('USDC as a decimal string, e.g. "25" or "12.345678"'),
});
export type WithdrawalBody = z.infer<typeof withdrawalBody>;

const address = z.string().regex(hexAddress);
const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

export const withdrawalJson = z
  .object({
    id: z.uuid(),
    chainId: z.number().int(),
    network: z.string().describe("The network's name (CHAIN): base, base-sepolia, local…"),
    token: z.literal("USDC"),
    from: address.describe("Your signed-in (embedded) wallet"),
    to: address,
    amount: z.string().describe('Decimal USDC, all 6 decimals: "12.500000"'),
    status: z
      .enum(txStatuses)
      .describe(
        "pending / submitted: on its way (reconcile finishes it); confirmed: arrived; failed: nothing moved",
      ),
    txHash: hex32,
    explorerUrl: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "Withdrawal" });
export type WithdrawalJson = z.infer<typeof withdrawalJson>;

export const withdrawalResponse = z.object({ withdrawal: withdrawalJson });

export const walletRoles = ["embedded", "linked", "funding"] as const;
export type WalletRole = (typeof walletRoles)[number];

export const walletEntryJson = z.object({
  address,
  label: z.string().describe('"Signed-in wallet", "Linked wallet" or "Funding wallet"'),
  roles: z
    .array(z.enum(walletRoles))
    .describe(
      "embedded: the wallet your sign-in provider holds for you; linked: your payout wallet; funding: a wallet that funded your deals",
    ),
  balance: z.string().describe("USDC held, read on-chain, as a decimal string"),
  canSend: z
    .boolean()
    .describe("true: POST /api/wallet/withdrawals can send from it (the embedded wallet)"),
  explorerUrl: z.string().nullable(),
  onrampUrl: z.string().nullable().describe("A card on-ramp to this wallet (ONRAMP_URL), or null"),
  offrampUrl: z
    .string()
    .nullable()
    .describe("A bank off-ramp from this wallet (OFFRAMP_URL), or null"),
});
export type WalletEntryJson = z.infer<typeof walletEntryJson>;

export const walletOverviewResponse = z
  .object({
    chainId: z.number().int(),
    network: z.string(),
    networkName: z.string().describe("Human name of the network"),
    token: z.object({ symbol: z.literal("USDC"), address: address.nullable() }),
    wallets: z.array(walletEntryJson),
    /** Sending needs an embedded-wallet signer and a relayer; false: the form is not offered. */
    canSend: z.boolean(),
    withdrawals: z
      .array(withdrawalJson)
      .describe(
        "Your latest 20 sends from the signed-in wallet, newest first (all of them: the ledger)",
      ),
  })
  .meta({ id: "WalletOverview" });
export type WalletOverviewJson = z.infer<typeof walletOverviewResponse>;
