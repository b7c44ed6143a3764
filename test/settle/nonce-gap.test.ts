import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { takeSignerNonce } from "@/db/queries/chain-transactions";
import { chainTransactions } from "@/db/schema";
import { chainConfig, requireTreasury } from "@/lib/chain/config";
import { NONCE_FILL_PURPOSE } from "@/lib/chain/sender";
import { reconcile } from "@/lib/settle/reconcile";
import { setChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { ageNonceActivity } from "../helpers/treasury";
import { submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// A targeted reconcile (an operator's run for one settlement or deal) fills the unused nonce
// that holds its own release back. Here a process allocated the treasury's next nonce and
// died before recording it; the release signed after it waits in the node's pool behind the
// gap. The receipt waits are shorter than the sender's own late check for gaps (100 ms), so
// only reconcile's explicit pass can fill it.

// Set after the set-up (whose own sends wait as usual: on a busy machine 50 ms is too short
// for the deal's funding and acceptance).
let restore: (() => void) | undefined;
afterAll(() => restore?.());

describe("a targeted reconcile and an unused nonce below its release", () => {
  it("fills the gap, and the settlement is paid once", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const treasury: Address = privateKeyToAccount(requireTreasury()).address;
    const signer = { chainId: chainConfig().chainId, from: treasury };
    restore = setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "0.05" });

    // The counter row exists (a send happened in the set-up); a process takes a nonce and dies.
    const lost = (await takeSignerNonce(db, signer, null)) as number;
    const settled = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(settled.status, JSON.stringify(settled.body)).toBe(202);
    const [s] = await settlementRows(milestoneId);
    expect(s?.status).toBe("submitted");
    expect(await usdcBalance(wallet)).toBe(0n);

    // Long enough ago that nothing is still recording the lost nonce.
    await ageNonceActivity(db, signer, s?.chainTxId as string);
    const report = await reconcile(db, { settlementId: s?.id });
    expect(report.settlements.confirmed).toBe(1);
    const [fill] = await db
      .select()
      .from(chainTransactions)
      .where(
        and(
          eq(chainTransactions.chainId, signer.chainId),
          eq(chainTransactions.fromAddress, treasury),
          eq(chainTransactions.nonce, lost),
        ),
      );
    expect(fill?.purpose).toBe(NONCE_FILL_PURPOSE);
    const [done] = await settlementRows(milestoneId);
    expect(done?.status).toBe("confirmed");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
