import { afterEach, describe, expect, it } from "vitest";
import * as cronRoute from "@/app/api/cron/reconcile/route";
import { resetEnvCache } from "@/lib/env";
import { call } from "../helpers/http";

// The reconcile cron route is protected by CRON_SECRET (Vercel Cron sends it as a bearer).
function withSecret(value: string | undefined) {
  if (value === undefined) delete process.env.CRON_SECRET;
  else process.env.CRON_SECRET = value;
  resetEnvCache();
}
afterEach(() => withSecret(undefined));

describe("GET /api/cron/reconcile", () => {
  it("is not available without a configured secret", async () => {
    withSecret(undefined);
    const res = await call(cronRoute.GET, { headers: { authorization: "Bearer anything" } });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("not_configured");
  });

  it("refuses a missing or wrong secret", async () => {
    withSecret("s3cret-value");
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer nope" },
      { authorization: "s3cret-value" },
    ];
    for (const headers of attempts) {
      const res = await call(cronRoute.GET, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthenticated");
    }
  });

  it("runs reconciliation with the right secret and reports what it did", async () => {
    withSecret("s3cret-value");
    const res = await call(cronRoute.GET, { headers: { authorization: "Bearer s3cret-value" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      settlements: expect.objectContaining({ confirmed: expect.any(Number) }),
      transactions: expect.objectContaining({ stillPending: expect.any(Number) }),
    });
  });
});
