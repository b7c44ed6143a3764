// npm run bench (auth part) — authenticated GET throughput, three ways, in the same run:
//
//   floor        a bare node:http handler that reads the bearer and answers the user row from
//                one query (postgres.js on BENCH_DATABASE_URL, else the same PGlite handle)
//   session      GET /api/auth/me through the real route (wrapper, session-token decrypt,
//                user lookup) with a session token as the bearer
//   api key      the same route with an API key: hash lookup joined to the user, scope check,
//                the per-key + per-user rate-limit upsert (one round trip, a write)
//
// Each is served by node:http on 127.0.0.1 and driven by CONCURRENCY keep-alive clients for
// REQUESTS requests; the figure is requests per second (median of ROUNDS rounds), and the
// ratio is against the floor. Also run on its own: `tsx bench/auth-get.ts [rounds]`.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const ROUNDS = Number(process.argv[2] ?? 3);
const CONCURRENCY = 16;
const REQUESTS = 2000;

const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

type Handler = (req: Request) => Promise<Response>;

/** Serves a fetch-style handler over node:http (what Next's server does, minus the rest). */
async function serve(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const response = await handler(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers }),
    );
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Requests per second for `total` GETs from `concurrency` clients; any non-200 aborts. */
async function drive(url: string, bearer: string, total: number, concurrency: number) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const res = await fetch(url, { headers: { authorization: `Bearer ${bearer}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      }
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

export async function authGetBench(rounds = ROUNDS) {
  const { createFreshDatabase } = await import("@/db/fresh");
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const fresh = serverUrl ? await createFreshDatabase(serverUrl, "milestone_bench_auth") : null;
  Object.assign(process.env, {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "milestone-bench-auth-")),
    LOG_LEVEL: "error",
    // Throughput, not the limiter's refusals: limits far above what the run sends.
    API_KEY_RATE_LIMIT: "1000000000",
    USER_RATE_LIMIT: "1000000000",
    ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }),
  });

  const { sql } = await import("drizzle-orm");
  const { getDb, closeDb, dbDriver } = await import("@/lib/db");
  const { users } = await import("@/db/schema");
  const { createSessionToken } = await import("@/lib/auth/session");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { GET: meGET } = await import("@/app/api/auth/me/route");
  const db = await getDb();

  const [user] = await db
    .insert(users)
    .values({ issuer: "bench", subject: randomUUID(), email: "auth@bench.invalid" })
    .returning();
  if (!user) throw new Error("no fixture user");
  const { token: session } = await createSessionToken(user.id, user.sessionVersion);
  const { key } = await createApiKey(db, { userId: user.id, name: "bench", scopes: ["read"] });

  // The floor: the least a server must do for this answer — read the credential, one query.
  const pg = fresh ? (await import("postgres")).default(fresh.url, { max: 10 }) : null;
  const floorQuery = pg
    ? async (id: string) =>
        pg`select id, email, profile_type, wallet_address from users where id = ${id}`
    : async (id: string) =>
        (
          (await db.execute(
            sql`select id, email, profile_type, wallet_address from users where id = ${id}`,
          )) as unknown as { rows: unknown[] }
        ).rows;
  const floor = await serve(async (req) => {
    const bearer = req.headers.get("authorization")?.slice(7);
    if (!bearer) return new Response(null, { status: 401 });
    const [row] = (await floorQuery(user.id)) as unknown[];
    return Response.json({ user: row });
  });
  const app = await serve((req) => meGET(req));

  // Warm up every path (connections, JIT, the key's last-used write).
  await drive(floor.url, session, 200, CONCURRENCY);
  await drive(`${app.url}/api/auth/me`, session, 200, CONCURRENCY);
  await drive(`${app.url}/api/auth/me`, key, 200, CONCURRENCY);

  const figures = { floor: [] as number[], session: [] as number[], apiKey: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    figures.floor.push(await drive(floor.url, session, REQUESTS, CONCURRENCY));
    figures.session.push(await drive(`${app.url}/api/auth/me`, session, REQUESTS, CONCURRENCY));
    figures.apiKey.push(await drive(`${app.url}/api/auth/me`, key, REQUESTS, CONCURRENCY));
  }
  const base = median(figures.floor);
  console.log(
    `\nAuthenticated GET throughput — ${rounds} rounds of ${REQUESTS} requests, ${CONCURRENCY} concurrent clients, median; database: ${await dbDriver()}${pg ? " (floor: postgres.js)" : " (floor: the same PGlite)"}\n`,
  );
  console.log(["figure".padEnd(52), "req/s".padStart(10), "vs floor".padStart(10)].join(""));
  for (const [name, values] of [
    ["floor: node:http + one query", figures.floor],
    ["GET /api/auth/me with a session token", figures.session],
    ["GET /api/auth/me with an API key", figures.apiKey],
  ] as const) {
    const v = median(values);
    console.log(
      [name.padEnd(52), v.toFixed(0).padStart(10), `${(v / base).toFixed(2)}×`.padStart(10)].join(
        "",
      ),
    );
  }

  for (const s of [floor.server, app.server]) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  await pg?.end();
  await closeDb();
  await fresh?.drop();
}

// Run directly (tsx bench/auth-get.ts), not when imported.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  authGetBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
