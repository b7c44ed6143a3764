import { afterEach, describe, expect, it } from "vitest";
import * as clockRoute from "@/app/api/dev/clock/route";
import { now } from "@/lib/clock";
import { resetEnvCache } from "@/lib/env";
import { call } from "../helpers/http";

// The demo's test clock: it moves the service's timers forward (never back), and exists only
// on a local demo — elsewhere the route is a 404, like the dev identity provider.

describe("the test clock", () => {
  afterEach(() => {
    delete process.env.DEV_IDP_ENABLED;
    resetEnvCache();
  });

  it("moves the service's now forward, and only forward", async () => {
    const before = now().getTime();
    const res = await call(clockRoute.POST, { body: { advanceSeconds: 3600 } });
    expect(res.status).toBe(200);
    expect(res.body.offsetSeconds).toBeGreaterThanOrEqual(3600);
    expect(now().getTime() - before).toBeGreaterThanOrEqual(3600_000);
    const read = await call(clockRoute.GET);
    expect(Date.parse(read.body.now)).toBeGreaterThanOrEqual(before + 3600_000);

    for (const advanceSeconds of [0, -60, 1.5, "60"]) {
      const bad = await call(clockRoute.POST, { body: { advanceSeconds } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("invalid_request");
    }
  });

  it("is not there when the dev identity provider is off", async () => {
    process.env.DEV_IDP_ENABLED = "0";
    resetEnvCache();
    const res = await call(clockRoute.POST, { body: { advanceSeconds: 60 } });
    expect(res.status).toBe(404);
    expect((await call(clockRoute.GET)).status).toBe(404);
  });
});
