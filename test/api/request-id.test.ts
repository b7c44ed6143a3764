import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as meGET, POST as mePOST } from "@/app/api/auth/me/route";
import { POST as dealsPOST } from "@/app/api/deals/route";
import { resetEnvCache } from "@/lib/env";
import { route } from "@/lib/http";
import { log } from "@/lib/log";
import { signIn, type TestSession } from "../helpers/auth";
import { call } from "../helpers/http";

// Issue 26: every response carries Request-Id, errors included; the error envelope repeats
// it as `requestId`, and the structured log lines written while handling it carry it too.
// An incoming X-Request-Id is honoured only behind a trusted proxy (TRUSTED_PROXY > 0).

let brand: TestSession;
beforeAll(async () => {
  brand = await signIn({ profileType: "organization" });
}, 60_000);

const savedProxy = process.env.TRUSTED_PROXY;
afterEach(() => {
  if (savedProxy === undefined) delete process.env.TRUSTED_PROXY;
  else process.env.TRUSTED_PROXY = savedProxy;
  resetEnvCache();
  vi.restoreAllMocks();
});

const idPattern = /^req_[A-Za-z0-9_-]{16}$/;

describe("Request-Id", () => {
  it("is on a 200", async () => {
    const res = await call(meGET, { token: brand.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("request-id")).toMatch(idPattern);
  });

  it("is on a 400, and in its envelope", async () => {
    const res = await call(dealsPOST, { token: brand.token, body: { title: "" } });
    expect(res.status).toBe(400);
    const id = res.headers.get("request-id");
    expect(id).toMatch(idPattern);
    expect(res.body.error.requestId).toBe(id);
  });

  it("is on a 401, and in its envelope", async () => {
    const res = await call(meGET);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
    expect(res.body.error.requestId).toBe(res.headers.get("request-id"));
  });

  it("is on a 405 and an OPTIONS", async () => {
    const res = await call(mePOST, { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.body.error.requestId).toBe(res.headers.get("request-id"));
  });

  it("is on a 500, in its envelope and in the log line of the error", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const broken = route({}, () => {
      log.error("about to fail", { step: 1 });
      throw new Error("a bug");
    });
    const res = await call(broken);
    expect(res.status).toBe(500);
    const id = res.headers.get("request-id");
    expect(id).toMatch(idPattern);
    expect(res.body.error).toEqual({
      code: "internal",
      message: expect.any(String),
      requestId: id,
    });
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; requestId?: string });
    expect(logged.find((l) => l.msg === "about to fail")?.requestId).toBe(id);
    expect(logged.find((l) => l.msg === "unhandled error")?.requestId).toBe(id);
  });

  it("is a new one per request", async () => {
    const a = await call(meGET, { token: brand.token });
    const b = await call(meGET, { token: brand.token });
    expect(a.headers.get("request-id")).not.toBe(b.headers.get("request-id"));
  });

  it("takes X-Request-Id only from a trusted proxy", async () => {
    const headers = { "x-request-id": "lb-1234-abcd-5678" };
    const direct = await call(meGET, { token: brand.token, headers });
    expect(direct.headers.get("request-id")).toMatch(idPattern);

    process.env.TRUSTED_PROXY = "1";
    resetEnvCache();
    const proxied = await call(meGET, { token: brand.token, headers });
    expect(proxied.headers.get("request-id")).toBe("lb-1234-abcd-5678");
    const failed = await call(meGET, { headers });
    expect(failed.body.error.requestId).toBe("lb-1234-abcd-5678");
    // Something that is no id (too long, or characters a log viewer could trip on) is replaced.
    const odd = await call(meGET, { token: brand.token, headers: { "x-request-id": "a b<c>" } });
    expect(odd.headers.get("request-id")).toMatch(idPattern);
  });
});
