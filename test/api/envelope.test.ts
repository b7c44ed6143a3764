import { ApiError as ClientError, createClient } from "@milestone/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch } from "@/lib/client/api";

// The two clients read an error answer the same way (lib/api/envelope.ts): the contract's
// envelope when the body is one, else each its own fallback.

const envelope = { error: { code: "not_found", message: "No such deal.", details: { id: "x" } } };
const answer = (status: number, body: string) => new Response(body, { status });

afterEach(() => vi.unstubAllGlobals());

describe("error envelopes", () => {
  it("the browser helper throws the envelope's code, message and details", async () => {
    vi.stubGlobal("fetch", async () => answer(404, JSON.stringify(envelope)));
    const err = await apiFetch("/api/deals/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "not_found", message: "No such deal.", status: 404 });
    expect((err as ApiError).details).toEqual({ id: "x" });
  });

  it("the browser helper answers http_error for a body that is not an envelope", async () => {
    for (const body of [
      "",
      "<html>",
      "{}",
      '{"error":"x"}',
      '{"error":{"code":1,"message":"m"}}',
    ]) {
      vi.stubGlobal("fetch", async () => answer(502, body));
      await expect(apiFetch("/api/deals")).rejects.toMatchObject({
        code: "http_error",
        status: 502,
      });
    }
    vi.stubGlobal("fetch", async () => answer(200, '{"deals":[]}'));
    await expect(apiFetch("/api/deals")).resolves.toEqual({ deals: [] });
  });

  it("the typed client throws the envelope, or unexpected_response with the body's start", async () => {
    let body = JSON.stringify(envelope);
    const api = createClient({
      baseUrl: "http://localhost",
      apiKey: "mk_test",
      fetch: async () => answer(404, body),
    });
    const err = await api.getDeal("x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: "not_found", message: "No such deal.", status: 404 });
    expect((err as ClientError).details).toEqual({ id: "x" });
    body = '{"error":{"code":"x"}}';
    await expect(api.getDeal("x")).rejects.toMatchObject({
      code: "unexpected_response",
      message: 'HTTP 404: {"error":{"code":"x"}}',
    });
  });
});
