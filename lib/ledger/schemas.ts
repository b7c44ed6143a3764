import { z } from "zod";
import { ledgerKinds } from "@/lib/ledger/ledger";

// The ledger's documented answers (lib/openapi.ts), checked against real answers in
// test/ledger/ledger.test.ts and against the code's type below.

const decimal = z
  .string()
  .regex(/^\d+\.\d{6}$/)
  .describe("USDC, 6 decimal places");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

export const ledgerEntrySchema = z
  .object({
    id: z
      .string()
      .describe("Stable: funding-…, release-…, remainder-…, refund-…, returned-…, withdrawal-…"),
    kind: z.enum(ledgerKinds),
    reason: z.enum(["remainder", "cancel", "expired", "returned"]).nullable(),
    role: z.enum(["brand", "creator", "account"]),
    date: z.iso.datetime(),
    deal: z.object({ id: z.uuid(), title: z.string() }).nullable(),
    milestone: z
      .object({ id: z.uuid(), position: z.number().int().nonnegative(), title: z.string() })
      .nullable(),
    amount: decimal,
    amountUnits: z.string().regex(/^\d+$/),
    currency: z.literal("USDC"),
    from: address.nullable(),
    to: address.nullable(),
    counterparty: z.object({ address: address.nullable(), name: z.string().nullable() }),
    chainId: z.number().int().nullable(),
    txHash: hash.nullable(),
    explorerUrl: z.string().nullable(),
    verdictHash: hash.nullable(),
  })
  .meta({ id: "LedgerEntry" });

export const ledgerPageResponse = z.object({
  entries: z.array(ledgerEntrySchema),
  nextCursor: z.string().nullable(),
});

export const ledgerCsvResponse = z
  .string()
  .describe(
    "text/csv (RFC 4180, CRLF), header row: date,id,kind,reason,role,deal_id,deal,milestone,amount,currency,from,to,counterparty,counterparty_name,chain_id,tx_hash,explorer_url,verdict_hash",
  );
