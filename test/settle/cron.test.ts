import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as cronRoute from "@/app/api/cron/reconcile/route";
import { cronSecret } from "@/lib/cron";
import { isEmbedded, resetEnvCache } from "@/lib/env";
import { call } from "../helpers/http";
import { submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";
import { leaveSettlementUnmined, type PausableChain, startPausableChain } from "./unfinished";

// GET /api/cron/reconcile finishes settlements a request left behind; it needs the cron
// secret (Vercel Cron sends it as a bearer). Each run here is scoped (`?settlement=`) to a
// settlement this file made on its own anvil: the shared test database also holds other
// files' settlements, which are theirs to finish.

const SECRET = "s3cret-value";
function withSecret(value: string | undefined) {
  if (value === undefined) delete process.env.CRON_SECRET;
  else process.env.CRON_SECRET = value;
  resetEnvCache();
}

let chain: PausableChain;
beforeAll(async () => {
  chain = await startPausableChain();
});
afterAll(async () => {
  await chain?.stop();
});
afterEach(() => withSecret(undefined));

const reconcileVia = (headers: Record<string, string>, settlementId?: string) =>
  call(cronRoute.GET, {
    path: `/api/cron/reconcile${settlementId ? `?settlement=${settlementId}` : ""}`,
    headers,
  });

describe("GET /api/cron/reconcile", () => {
  it("without CRON_SECRET: 503 not_configured, or the embedded secret under DATA_DIR", async () => {
    withSecret(undefined);
    const res = await reconcileVia({ authorization: "Bearer anything" });
    if (isEmbedded()) {
      // PGlite: the embedded setup generates a secret for `npm run reconcile` to use.
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthenticated");
      expect(cronSecret()).toMatch(/^[0-9a-f]{64}$/);
    } else {
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("not_configured");
    }
  });

  it("finishes a settlement left unmined, only with the secret, paying exactly once", async () => {
    withSecret(SECRET);
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const left = await leaveSettlementUnmined(chain, brand, milestoneId);

    // No secret, a wrong one, or the secret without "Bearer": refused, and nothing moves.
    for (const headers of [
      {},
      { authorization: "Bearer nope" },
      { authorization: SECRET },
    ] as Array<Record<string, string>>) {
      const res = await reconcileVia(headers, left.id);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthenticated");
    }
    const [untouched] = await settlementRows(milestoneId);
    expect(untouched?.status).toBe("submitted");
    expect(await usdcBalance(wallet)).toBe(0n);

    const res = await reconcileVia({ authorization: `Bearer ${SECRET}` }, left.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.settlements).toEqual({ confirmed: 1, stillPending: 0, busy: 0, failed: 0 });

    const [done] = await settlementRows(milestoneId);
    expect(done?.status).toBe("confirmed");
    // The recorded transaction was re-broadcast, not a new one signed: one transfer.
    expect(done?.txHash).toBe(left.txHash);
    const transfers = await transfersTo(wallet);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.args.value).toBe(left.amountUnits);
    expect(await usdcBalance(wallet)).toBe(left.amountUnits);

    // Running it again finds nothing to do for this settlement and pays nothing more.
    const again = await reconcileVia({ authorization: `Bearer ${SECRET}` }, left.id);
    expect(again.status).toBe(200);
    expect(again.body.settlements.confirmed).toBe(0);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
