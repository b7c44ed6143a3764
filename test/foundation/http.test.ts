import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { MAX_BODY_BYTES, route } from "@/lib/http";
import { call } from "../helpers/http";

// The wrapper on a handler built like every real one; the real-route versions of these
// cases live next to the routes' own tests (e.g. test/auth).
const echo = route(
  {
    body: z.object({ name: z.string().min(1), count: z.number().int() }),
    params: z.object({ id: z.uuid() }),
  },
  ({ body, params }) => Response.json({ ...body, id: params.id }),
);
const id = "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f";

describe("route wrapper", () => {
  it("passes validated input through", async () => {
    const res = await call(echo, { body: { name: "a", count: 2 }, params: { id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: "a", count: 2, id });
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    const res = await call(echo, { rawBody: '{"name": "a",', params: { id } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("refuses a body that is not sent as JSON (415): no cross-site form posts", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
      const res = await call(echo, {
        rawBody: JSON.stringify({ name: "a", count: 1 }),
        headers: { "content-type": type },
        params: { id },
      });
      expect(res.status, type).toBe(415);
      expect(res.body.error.code).toBe("unsupported_media_type");
    }
    const withCharset = await call(echo, {
      rawBody: JSON.stringify({ name: "a", count: 1 }),
      headers: { "content-type": "application/json; charset=utf-8" },
      params: { id },
    });
    expect(withCharset.status).toBe(200);
  });

  it("answers a wrong-typed body with 400 invalid_request and the issue paths", async () => {
    const res = await call(echo, { body: { name: 5, count: "x" }, params: { id } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    const paths = res.body.error.details.map((d: { path: string[] }) => d.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["name", "count"]));
  });

  it("answers a malformed path id with 400, not 404 or 500", async () => {
    const res = await call(echo, { body: { name: "a", count: 1 }, params: { id: "nope" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("refuses bodies over 64 KiB with 413, with or without content-length", async () => {
    const big = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES), count: 1 });
    const declared = await call(echo, { rawBody: big, params: { id } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe("payload_too_large");

    // A streamed body has no content-length: the limit is enforced while reading.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const req = new Request("http://localhost/", {
      method: "POST",
      body: stream,
      // @ts-expect-error -- Node's fetch needs duplex for a streamed body
      duplex: "half",
    });
    const res = await echo(req, { params: Promise.resolve({ id }) });
    expect(res.status).toBe(413);
  });

  it("maps AppError to its status and hides unknown errors behind 500 internal", async () => {
    const conflict = route({}, () => {
      throw new AppError("already_settled", "Already paid.", { details: { txHash: "0x1" } });
    });
    const res = await call(conflict);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: {
        code: "already_settled",
        message: "Already paid.",
        details: { txHash: "0x1" },
        requestId: res.headers.get("request-id"),
      },
    });

    const boom = route({}, () => {
      throw new Error("secret connection string postgres://user:pw@host");
    });
    const res500 = await call(boom);
    expect(res500.status).toBe(500);
    expect(res500.body.error.code).toBe("internal");
    expect(JSON.stringify(res500.body)).not.toContain("postgres://");
  });

  it("runs the auth hook after validation and lets it refuse", async () => {
    const authed = route(
      {
        auth: async () => {
          throw new AppError("unauthenticated", "Sign in first.");
        },
      },
      () => Response.json({ ok: true }),
    );
    const res = await call(authed);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
  });

  it("answers a NUL character in the body, query or path with 400 naming the field", async () => {
    const nul = "\u0000";
    const body = await call(echo, { body: { name: `a${nul}`, count: 1 }, params: { id } });
    expect(body.status).toBe(400);
    expect(body.body.error).toMatchObject({
      code: "invalid_request",
      message: "The request body is invalid: name contains a NUL character.",
      details: [{ path: ["name"], code: "nul_character" }],
    });

    const withQuery = route({ query: z.object({ q: z.string() }) }, ({ query }) =>
      Response.json(query),
    );
    const query = await call(withQuery, { path: "/?q=a%00b" });
    expect(query.status).toBe(400);
    expect(query.body.error.details[0].path).toEqual(["q"]);

    const path = await call(echo, { body: { name: "a", count: 1 }, params: { id: `${id}${nul}` } });
    expect(path.status).toBe(400);
    expect(path.body.error.message).toBe(
      "The request path is invalid: id contains a NUL character.",
    );
  });

  it("a deeply nested body is a 400, not a stack overflow", async () => {
    const depth = 30_000;
    const rawBody = `{"name":"a","count":1,"deep":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const ok = await call(echo, { rawBody, params: { id } });
    expect(ok.status).toBe(200);
    const withNul = `{"name":"a","count":1,"deep":${"[".repeat(depth)}"\\u0000"${"]".repeat(depth)}}`;
    const res = await call(echo, { rawBody: withNul, params: { id } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toHaveLength(depth + 1);
  });
});
