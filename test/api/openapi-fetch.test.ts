import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reference } from "@/app/api/reference";
import { userResponse } from "@/lib/auth/users";
import { openApiDocument } from "@/lib/openapi";
import { dealDetailResponse } from "@/lib/settle/review";
import { devIdToken, uniqueEmail } from "../helpers/auth";
import { inProcessFetch } from "./in-process-fetch";

// The reference measured with clients nobody here wrote (issue 26, item 6): openapi-typescript
// generates types from the document /api/openapi.json serves, and an integrator's program
// written against them with openapi-fetch (test/fixtures/openapi-consumer/consumer.ts) must
// type-check under strict tsc — including lines the types must refuse — and work against the
// real route handlers: sign in, me, create a deal, list deals, read one, a 404.

const root = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(root, "test/fixtures/openapi-consumer/consumer.ts");
// Inside the repository, so the copy resolves openapi-fetch from node_modules as a program would.
const dir = path.join(root, ".data", `openapi-consumer-${process.pid}-${Date.now()}`);

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const document = openApiDocument("http://localhost", reference);
  const types = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  writeFileSync(path.join(dir, "schema.ts"), types);
  copyFileSync(fixture, path.join(dir, "consumer.ts"));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023", "DOM"],
        module: "esnext",
        moduleResolution: "bundler",
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ["consumer.ts", "schema.ts"],
    }),
  );
});

type DealJson = { id: string; milestones: { requirements: { hashtags: string[] } }[] };
type Consumer = (opts: { baseUrl: string; fetch: typeof fetch; idToken: string }) => Promise<{
  signedInAs: string;
  me: unknown;
  created: DealJson;
  listed: string[];
  read: DealJson;
  notFound: { status: number; code: string };
  requestId: string | null;
}>;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("openapi-typescript + openapi-fetch against the served reference", () => {
  it("the generated types and a program using them type-check (strict), and refuse bad calls", async () => {
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const result = await promisify(execFile)(process.execPath, [tsc, "-p", dir], {
      cwd: dir,
    }).then(
      () => ({ code: 0, out: "" }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code ?? 1, out: e.stdout ?? "" }),
    );
    expect(result.out).toBe("");
    expect(result.code).toBe(0);
  });

  it("the program signs in, reads me, creates a deal and lists it through the route handlers", async () => {
    // Its types are the generated ones, which exist only in the scratch copy.
    const { run } = (await import(path.join(dir, "consumer.ts"))) as { run: Consumer };
    const email = uniqueEmail("openapi-fetch");
    const out = await run({
      baseUrl: "http://localhost",
      fetch: inProcessFetch,
      idToken: await devIdToken(email),
    });
    expect(out.signedInAs).toBe(email);
    expect(userResponse.parse({ user: out.me }).user).toMatchObject({
      email,
      profileType: "organization",
    });
    expect(out.requestId).toMatch(/^req_/);
    expect(out.created).toMatchObject({
      title: "Spring launch (openapi-fetch)",
      status: "unfunded",
      budget: 12.5,
      metadata: { order_id: "A-1" },
    });
    expect(out.created.milestones[0]?.requirements.hashtags).toEqual(["#MilestoneLaunch"]);
    expect(out.listed).toEqual([out.created.id]);
    expect(dealDetailResponse.parse({ deal: out.read }).deal).toMatchObject(out.created);
    expect(out.notFound).toEqual({ status: 404, code: "not_found" });
  });
});
