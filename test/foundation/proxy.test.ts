import { describe, expect, it } from "vitest";
import { config, decodablePath, proxy } from "@/proxy";

// proxy.ts: a path whose percent-encoding does not decode is a 400, because Next would
// otherwise fail decoding the route's params with a bare 500 before any handler runs.
// (Checked by hand against `next start` as well: see the README's security notes.)

describe("proxy (bad percent-encoding)", () => {
  it("answers an API path with the contract's 400 envelope", async () => {
    for (const path of ["/api/deals/%E0%A4%A", "/api/deals/%ZZ/accept", "/api/reputation/%"]) {
      const res = await proxy(new Request(`http://localhost${path}`));
      expect(res?.status).toBe(400);
      expect(await res?.json()).toMatchObject({
        error: { code: "invalid_request", message: expect.stringContaining("percent-encoding") },
      });
    }
  });

  it("answers a page path with a plain 400", async () => {
    const res = await proxy(new Request("http://localhost/explorer/tx/%E0%A4%A"));
    expect(res?.status).toBe(400);
    expect(res?.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("lets well-formed escapes through (handlers validate what they decode to)", async () => {
    for (const path of ["/api/deals/%00", "/explorer/address/0x%41", "/docs%20x", "/"])
      expect(await proxy(new Request(`http://localhost${path}`))).toBeUndefined();
    expect(decodablePath("/a%C3%A9")).toBe(true);
    expect(decodablePath("/a%C3")).toBe(false);
  });

  it("runs for the API (CORS) and for other paths only when they have a percent sign", () => {
    expect(config.matcher).toEqual(["/api/:path*", "/(.*%.*)"]);
    const percent = new RegExp(`^${config.matcher[1]}$`);
    expect(percent.test("/explorer/tx/%E0%A4%A")).toBe(true);
    expect(percent.test("/deals/6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f")).toBe(false);
  });
});
