import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Address, type Hex, maxUint256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { closeDb, getDb } from "@/db/client";
import { createFreshDatabase } from "@/db/fresh";
import {
  dealEvents,
  deliverables,
  emailOutbox,
  settlements,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";
import { chainConfig, publicClient, resetChainConfigCache } from "@/lib/chain/config";
import { deployFundedContracts } from "@/lib/chain/deploy";
import { pollReceipt } from "@/lib/chain/sender";
import { env, resetEnvCache } from "@/lib/env";
import { BASE_ARGS, resolveChromium } from "../../e2e/chromium";
import { deploymentEnv } from "../chain-slots";
import { brandWallet, walletClientFor } from "../helpers/fund-deal";
import {
  freePort,
  type Instance,
  nextBuild,
  nextStartRefused,
  type RoundRobin,
  roundRobin,
  startInstance,
} from "../helpers/instances";
import type { TestUser } from "../helpers/users";
import { transfersTo } from "../settle/fixtures";
import { launchRequirements, launchRules } from "../verify/fixtures";

// Many instances, one database (issue #25): one production build, three `next start` processes
// on this run's PostgreSQL and anvil behind a round-robin proxy, as a serverless host runs a
// deployment. Concurrent fundings, settles and decisions are spread over the three; one instance
// is killed in the middle of them and started again; the cron route is fired on all three at
// once, round after round. Then every milestone is paid exactly once on-chain, every event is
// delivered to the webhook receiver once, every e-mail leaves once, and the API-key rate limit
// and the demo unlock limit hold across the instances (their counters are rows in PostgreSQL).
//
// The build is itself a check: `next build` with a production configuration and no embedded
// parts (PostgreSQL, secrets set) passes, and without CRON_SECRET both the build and `next start`
// refuse, naming it. PostgreSQL only: PGlite is one process's database.
//
// The instances run the cron's reconcile, which takes on every open job in its database: so they
// (and this file) get a database of their own on the run's server, and a treasury key and
// contracts of their own on the run's anvil, and never touch other test files' work.

const onPostgres = Boolean(env().DATABASE_URL);
const DIST_DIR = ".data/next-multi";
const CRON_SECRET = randomBytes(24).toString("hex");
const API_KEY_LIMIT = 12;
const PASSPHRASE = "open sesame, multi-instance";

type Json = Record<string, any>;
type Answer = { status: number; body: Json };

/**
 * Webhook deliveries and e-mails as a receiver sees them: each event id / outbox id, counted;
 * and each mail's text, which `mailTo` waits for (the provider's side of a sign-in link).
 */
function startReceiver(): Promise<{
  origin: string;
  webhooks: Map<string, number>;
  mails: Map<string, number>;
  mailTo(address: string): Promise<string>;
  close(): Promise<void>;
}> {
  const webhooks = new Map<string, number>();
  const mails = new Map<string, number>();
  const texts = new Map<string, string>();
  const waiting = new Map<string, (text: string) => void>();
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => {
      raw += d;
    });
    req.on("end", () => {
      if (req.url === "/hook") {
        const id = String(req.headers["milestone-event-id"]);
        webhooks.set(id, (webhooks.get(id) ?? 0) + 1);
      } else if (req.url === "/mail") {
        const id = String(req.headers["idempotency-key"]);
        mails.set(id, (mails.get(id) ?? 0) + 1);
        const mail = JSON.parse(raw) as { to: string[]; text: string };
        for (const to of mail.to) {
          texts.set(to, mail.text);
          waiting.get(to)?.(mail.text);
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        webhooks,
        mails,
        mailTo: (address) =>
          new Promise((r) => {
            const seen = texts.get(address);
            if (seen) r(seen);
            else waiting.set(address, r);
          }),
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

describe.skipIf(!onPostgres)("three instances on one PostgreSQL", () => {
  /** The instances' DATA_DIR: the dev identity provider's keys, shared by the three. */
  let dataDir = "";
  let instances: Instance[] = [];
  let proxy: RoundRobin;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let vars: Record<string, string | undefined>;

  /** One API call through the proxy. */
  async function api(
    method: string,
    p: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${proxy.url}${p}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(120_000),
      });
      text = await res.text();
    } catch (err) {
      // The instance died after it had started to answer: the proxy can only cut the answer off.
      return { status: 0, body: { error: String((err as Error).cause ?? err) } };
    }
    let body: Json = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { text };
    }
    return { status: res.status, body };
  }

  async function ok(method: string, p: string, opts: Parameters<typeof api>[2] = {}) {
    const res = await api(method, p, opts);
    if (res.status >= 300)
      throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Signs in through the dev identity provider: the token from one instance, the session from the next. */
  async function signIn(profileType: "organization" | "creator"): Promise<TestUser> {
    const email = `${profileType}-${randomBytes(4).toString("hex")}@multi.test`;
    const { idToken } = await ok("POST", "/api/dev/id-token", {
      body: { email, embeddedWallet: profileType === "creator" },
    });
    const session = await ok("POST", "/api/auth/session", { body: { idToken, profileType } });
    return { user: session.user, token: session.token } as TestUser;
  }

  /** The creator's sandbox handle declared, proven with a post carrying its code, as the UI does. */
  async function proveSandboxHandle(creator: TestUser): Promise<string> {
    const handle = `m${creator.user.id.replaceAll("-", "").slice(0, 12)}`;
    const put = await ok("PUT", "/api/profile/handles", {
      token: creator.token,
      body: { platform: "sandbox", handle },
    });
    const code = put.handle.verification.code as string;
    const proof = await ok("POST", "/api/social/posts", {
      token: creator.token,
      body: { handle, caption: `Verifying @${handle} for Milestone: ${code}` },
    });
    const checked = await ok("POST", "/api/profile/handles/verify", {
      token: creator.token,
      body: { platform: "sandbox", handle, postUrl: proof.post.url },
    });
    expect(checked.handle.verified).toBe(true);
    return handle;
  }

  /** All three instances' cron route at the same moment. */
  function cronStorm(): Promise<Array<{ status: number; report: Json }>> {
    return Promise.all(
      instances.map(async (i) => {
        const res = await fetch(`${i.url}/api/cron/reconcile`, {
          headers: { authorization: `Bearer ${CRON_SECRET}` },
          signal: AbortSignal.timeout(300_000),
        });
        return { status: res.status, report: (await res.json()) as Json };
      }),
    );
  }

  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "milestone-multi-"));
    receiver = await startReceiver();
    const server = env().TEST_DATABASE_URL ?? (env().DATABASE_URL as string);
    const fresh = await createFreshDatabase(server, "milestone_multi");
    dropDatabase = fresh.drop;
    const treasuryKey = generatePrivateKey();
    const sponsorKey = generatePrivateKey();
    for (const key of [treasuryKey, sponsorKey])
      await publicClient().request({
        method: "anvil_setBalance" as never,
        params: [privateKeyToAccount(key).address, toHex(10n ** 21n)] as never,
      });
    const contracts = deploymentEnv(
      await deployFundedContracts({ rpcUrl: chainConfig().rpcUrl, treasuryKey }),
    );
    await closeDb();
    Object.assign(process.env, contracts, {
      DATABASE_URL: fresh.url,
      TREASURY_PRIVATE_KEY: treasuryKey,
      RELAY_SPONSOR_PRIVATE_KEY: sponsorKey,
    });
    resetEnvCache();
    resetChainConfigCache();
    const c = chainConfig();
    const e = env();
    vars = {
      NEXT_DIST_DIR: DIST_DIR,
      // npm run typecheck checks the same sources: the build skips it (minutes on two cores).
      BUILD_TYPECHECK: "0",
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      DATABASE_URL: e.DATABASE_URL,
      PGLITE_DIR: undefined,
      CHAIN: "local",
      RPC_URL: c.rpcUrl,
      TREASURY_PRIVATE_KEY: e.TREASURY_PRIVATE_KEY,
      RELAY_SPONSOR_PRIVATE_KEY: e.RELAY_SPONSOR_PRIVATE_KEY,
      USDC_ADDRESS: e.USDC_ADDRESS,
      REPUTATION_REGISTRY_ADDRESS: e.REPUTATION_REGISTRY_ADDRESS,
      ESCROW_ADDRESS: e.ESCROW_ADDRESS,
      DEPOSIT_FACTORY_ADDRESS: e.DEPOSIT_FACTORY_ADDRESS,
      AUTH_SECRET: randomBytes(24).toString("hex"),
      CRON_SECRET,
      DEV_IDP_ENABLED: "1",
      // A settle cut off by the kill holds its lease this + 60 s: kept short.
      TX_RECEIPT_TIMEOUT_SECONDS: "3",
      MAIL_TRANSPORT: "http",
      MAIL_HTTP_URL: `${receiver.origin}/mail`,
      API_KEY_RATE_LIMIT: String(API_KEY_LIMIT),
      DEMO_PASSPHRASE: PASSPHRASE,
      // A deployment names a bucket for uploads (no upload happens in this test).
      S3_BUCKET: "milestone-multi-instance",
    };
    // A deployment's build without CRON_SECRET stops while loading the configuration, naming it.
    const refused = await nextBuild({
      ...vars,
      CRON_SECRET: undefined,
      NEXT_DIST_DIR: `${DIST_DIR}-refused`,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("CRON_SECRET is required in production");

    const build = await nextBuild(vars);
    if (build.code !== 0) throw new Error(`next build failed:\n${build.output.slice(-4000)}`);
  }, 900_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await proxy?.close();
    await receiver?.close();
    await closeDb();
    await dropDatabase?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("next start refuses a deployment without CRON_SECRET, naming it, and exits", async () => {
    const refused = await nextStartRefused({ ...vars, CRON_SECRET: undefined });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("CRON_SECRET is required in production");
  }, 120_000);

  it("starts with only a mail provider, and a person signs in from a real browser by e-mail link", async () => {
    // No identity provider at all (no IDP_*, the demo provider off): e-mail links through the
    // HTTP mail provider (this file's receiver) are the way in, plus wallets.
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const mailOnly = await startInstance(
      "mail-only",
      {
        ...vars,
        DEV_IDP_ENABLED: undefined,
        APP_URL: appUrl,
        FETCH_ALLOWED_HOSTS: new URL(receiver.origin).host,
      },
      { port },
    );
    const launch = await resolveChromium();
    const browser = await chromium.launch({
      executablePath: launch.executablePath,
      args: [...BASE_ARGS, ...launch.args],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${appUrl}/sign-in`);
      await page.getByLabel("E-mail address").waitFor();
      // Exactly the configured methods: no OpenID button, no demo banner.
      expect(await page.getByRole("button", { name: /^Continue with/ }).count()).toBe(0);
      expect(await page.getByText("Demo identity").count()).toBe(0);
      const email = `mail-only-${randomBytes(4).toString("hex")}@multi.test`;
      await page.getByLabel("Creator", { exact: true }).check();
      await page.getByLabel("E-mail address").fill(email);
      await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
      await page.getByTestId("link-sent").waitFor();
      const text = await receiver.mailTo(email);
      const link = /(http\S+\/auth\/callback\/email\?\S+)/.exec(text)?.[1];
      expect(link?.startsWith(`${appUrl}/auth/callback/email?`)).toBe(true);
      await page.goto(link as string);
      await page.waitForURL(`${appUrl}/creator`);
      const me = await page.evaluate(() => fetch("/api/auth/me").then((r) => r.json()));
      expect(me.user).toMatchObject({ email, profileType: "creator" });
    } finally {
      await browser.close();
      await mailOnly.stop();
    }
  }, 300_000);

  it("pays once, delivers once and limits once across three instances, a kill and a cron storm", async () => {
    // Three instances; the proxy's address is the app's public URL (sign-in issuer, sandbox).
    const proxyPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const appUrl = `http://127.0.0.1:${proxyPort}`;
    Object.assign(vars, {
      APP_URL: appUrl,
      SANDBOX_SOCIAL: "1",
      FETCH_ALLOWED_HOSTS: [new URL(appUrl).host, new URL(receiver.origin).host].join(","),
    });
    // Where the time goes (printed at the end; not asserted).
    const phases: Array<[string, number]> = [["start instances", performance.now()]];
    instances = await Promise.all(["a", "b", "c"].map((n) => startInstance(n, vars)));
    phases.push(["users, deals, funding, posts", performance.now()]);
    proxy = await roundRobin(instances, proxyPort);

    // The public folder and robots.txt (no SEARCH_INDEXING: a preview keeps search engines out).
    const robots = await fetch(`${proxy.url}/robots.txt`);
    expect(await robots.text()).toMatch(/Disallow: \/\s*$/m);
    for (const file of ["/favicon.ico", "/og.png"])
      expect((await fetch(`${proxy.url}${file}`)).status, file).toBe(200);

    // Users, signed in across instances; creators with proven sandbox handles.
    const brand = await signIn("organization");
    const creators = await Promise.all([0, 1, 2].map(() => signIn("creator")));
    await Promise.all(creators.map(proveSandboxHandle));
    const me = await Promise.all(
      [0, 1, 2].map(() => ok("GET", "/api/auth/me", { token: brand.token })),
    );
    for (const m of me) expect(m.user.id).toBe(brand.user.id);

    await ok("POST", "/api/webhooks", {
      token: brand.token,
      body: { url: `${receiver.origin}/hook` },
    });
    const { key: apiKey } = await ok("POST", "/api/keys", {
      token: brand.token,
      body: { name: "multi", scopes: ["read"] },
    });

    // Seven deals of one milestone each: four the rules decide (they settle on their own), two
    // with a judgement-only criterion (the brand decides), and one nobody settles: its review
    // window runs out, a timer of the cron's.
    const kinds = ["auto", "auto", "auto", "auto", "decide", "decide", "timer"] as const;
    const deals = await Promise.all(
      kinds.map(async (kind, i) => {
        const created = await ok("POST", "/api/deals", {
          token: brand.token,
          body: {
            title: `Multi ${i}`,
            platform: "instagram",
            milestones: [
              {
                title: "Launch post",
                amount: 5,
                requirements: kind === "auto" ? launchRules : launchRequirements,
              },
            ],
          },
        });
        return {
          kind,
          id: created.deal.id as string,
          milestoneId: created.deal.milestones[0].id as string,
          creator: creators[i % creators.length] as TestUser,
        };
      }),
    );

    // Funding from the brand's wallet (on-chain, one after another from one account), then
    // every report sent twice at once through the proxy.
    const wallet = await brandWallet(brand, 100_000_000n);
    const client = walletClientFor(wallet);
    const c = chainConfig();
    const approve = await client.writeContract({
      address: c.usdc as Address,
      abi: mockUsdcAbi,
      functionName: "approve",
      args: [c.escrow as Address, maxUint256],
    });
    await pollReceipt(approve, 30_000);
    const funded: Array<{ id: string; hash: Hex }> = [];
    for (const d of deals) {
      const { funding } = await ok("GET", `/api/deals/${d.id}/funding?brand=${wallet.address}`, {
        token: brand.token,
      });
      const hash = await client.writeContract({
        address: funding.escrow,
        abi: milestoneEscrowAbi,
        functionName: "fund",
        args: [
          funding.dealRef,
          funding.evaluator,
          BigInt(funding.deadline),
          funding.amounts.map(BigInt),
        ],
      });
      const receipt = await pollReceipt(hash, 30_000);
      expect(receipt?.status).toBe("success");
      funded.push({ id: d.id, hash });
    }
    const reports = await Promise.all(
      funded.flatMap((f) =>
        [0, 1].map(() =>
          api("POST", `/api/deals/${f.id}/funding`, {
            token: brand.token,
            body: { txHash: f.hash, brand: wallet.address },
          }),
        ),
      ),
    );
    for (const r of reports) {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.deal.status).toBe("open");
    }

    // Creators take the deals and submit their posts (published on the sandbox).
    await Promise.all(
      deals.map((d) => ok("POST", `/api/deals/${d.id}/accept`, { token: d.creator.token })),
    );
    await Promise.all(
      deals.map(async (d) => {
        const handle = `m${d.creator.user.id.replaceAll("-", "").slice(0, 12)}`;
        const post = await ok("POST", "/api/social/posts", {
          token: d.creator.token,
          body: {
            handle,
            caption:
              "Launch day! The Milestone app gets creators paid per milestone. #MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
          },
        });
        await ok("POST", `/api/milestones/${d.milestoneId}/deliverable`, {
          token: d.creator.token,
          body: { url: post.post.url, note: "Final cut" },
        });
      }),
    );
    // The criterion deals go to the brand: the settle says so (needs_decision).
    for (const d of deals.filter((x) => x.kind === "decide")) {
      const res = await api("POST", "/api/settle", {
        token: brand.token,
        body: { milestoneId: d.milestoneId },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe("needs_decision");
    }

    // The load: three settles per auto deal, three decisions per criterion deal, all at once
    // through the proxy; instance b is killed as soon as the first answer is back.
    let killed: Promise<void> | undefined;
    const onAnswer = (res: Answer) => {
      killed ??= (instances[1] as Instance).kill();
      return res;
    };
    const paying = deals.filter((d) => d.kind !== "timer");
    phases.push(["load", performance.now()]);
    const load = await Promise.all(
      paying.flatMap((d) =>
        [0, 1, 2].map((_i, _n, _all, started = performance.now()) =>
          (d.kind === "auto"
            ? api("POST", "/api/settle", {
                token: brand.token,
                body: { milestoneId: d.milestoneId },
              })
            : api("POST", `/api/milestones/${d.milestoneId}/decision`, {
                token: brand.token,
                body: { approve: true, score: 0.8, reason: "Shows the app, as asked." },
              })
          )
            .then(onAnswer)
            .then((res) => ({ deal: d, res, ms: performance.now() - started })),
        ),
      ),
    );
    await killed;
    for (const { res } of load) {
      // Paid; or told another call is paying or has paid; or cut off by the kill (502 before
      // the instance answered, 0 when it died in the middle of its answer).
      // 202: submitted, the chain took longer than the request's budget (reconcile finishes it).
      if (res.status === 200 || res.status === 202) continue;
      if (res.status === 409)
        expect(["settlement_in_progress", "already_settled", "already_decided"]).toContain(
          res.body.error?.code,
        );
      else expect([0, 502, 503], JSON.stringify(res.body)).toContain(res.status);
    }
    phases.push(["restart", performance.now()]);
    await (instances[1] as Instance).restart();
    phases.push(["cron storm", performance.now()]);

    // The cron storm: all three at once, round after round, until every payment is confirmed
    // and nothing is left in the outbox or the webhook queue (at least three rounds).
    const db = await getDb();
    const milestoneIds = paying.map((d) => d.milestoneId);
    const timerDeal = deals.find((d) => d.kind === "timer") as (typeof deals)[number];
    // The timer deal's submission, a week and a second old: its review window has run out.
    await db
      .update(deliverables)
      .set({
        submittedAt: sql`${deliverables.submittedAt} - make_interval(secs => ${7 * 86400 + 1})`,
      })
      .where(eq(deliverables.milestoneId, timerDeal.milestoneId));
    const dealIds = deals.map((d) => d.id);
    const [endpoint] = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, brand.user.id));
    if (!endpoint) throw new Error("no webhook endpoint");
    const settled = () =>
      db
        .select({ status: settlements.status })
        .from(settlements)
        .where(inArray(settlements.milestoneId, milestoneIds));
    const pendingDeliveries = async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.endpointId, endpoint.id),
              eq(webhookDeliveries.status, "pending"),
            ),
          )
      )[0]?.n ?? 0;
    const unsentMail = async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(emailOutbox)
          .where(eq(emailOutbox.status, "pending"))
      )[0]?.n ?? 0;
    let rounds = 0;
    for (let round = 0; ; round++) {
      rounds = round + 1;
      const storm = await cronStorm();
      for (const s of storm) expect(s.status, JSON.stringify(s.report)).toBe(200);
      const rows = await settled();
      const done =
        rows.length === paying.length &&
        rows.every((r) => r.status === "confirmed") &&
        (await pendingDeliveries()) === 0 &&
        (await unsentMail()) === 0;
      if (done && round >= 2) break;
      // A payment whose instance was killed holding its lease waits for the lease to run out.
      if (round > 400) throw new Error(`not converged: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    phases.push(["checks", performance.now()]);
    // Exactly one payment per milestone, on-chain, of the settled amount (the rubric scores a
    // sandbox post 90 % at most; the decisions pay 80 %).
    const paid = await db
      .select({ milestoneId: settlements.milestoneId, amount: settlements.amountUnits })
      .from(settlements)
      .where(inArray(settlements.milestoneId, milestoneIds));
    expect(paid).toHaveLength(paying.length);
    for (const creator of creators) {
      const theirs = paying.filter((d) => d.creator.user.id === creator.user.id);
      const amounts = theirs.map((d) => paid.find((p) => p.milestoneId === d.milestoneId)?.amount);
      for (const [i, d] of theirs.entries())
        expect(amounts[i], d.kind).toBe(d.kind === "auto" ? 4_500_000n : 4_000_000n);
      const transfers = await transfersTo(creator.user.walletAddress as Address);
      expect(transfers.map((t) => t.args.value).sort()).toEqual(amounts.sort());
    }

    // Every event of these deals delivered to the receiver exactly once; every e-mail once.
    const events = await db
      .select({ id: dealEvents.id })
      .from(dealEvents)
      .where(inArray(dealEvents.dealId, dealIds));
    expect(events.length).toBeGreaterThan(deals.length * 4);
    for (const ev of events) expect(receiver.webhooks.get(ev.id), ev.id).toBe(1);
    for (const [, n] of receiver.webhooks) expect(n).toBe(1);
    const mails = await db
      .select({ id: emailOutbox.id, status: emailOutbox.status })
      .from(emailOutbox);
    expect(mails.length).toBeGreaterThan(0);
    for (const m of mails) {
      expect(m.status, m.id).toBe("sent");
      expect(receiver.mails.get(m.id), m.id).toBe(1);
    }
    expect(receiver.mails.size).toBe(mails.length);

    // The timer ran once, though every instance's cron looked at it in every round.
    const elapsed = await db
      .select({ id: dealEvents.id })
      .from(dealEvents)
      .where(
        and(
          eq(dealEvents.milestoneId, timerDeal.milestoneId),
          eq(dealEvents.type, "review_window_elapsed"),
        ),
      );
    expect(elapsed).toHaveLength(1);

    // The API key's rate limit holds across the three: at most API_KEY_LIMIT per minute window.
    const minute = () => Math.floor(Date.now() / 60_000);
    const from = minute();
    const burst = await Promise.all(
      Array.from({ length: API_KEY_LIMIT + 12 }, () => api("GET", "/api/deals", { token: apiKey })),
    );
    const windows = minute() - from + 1;
    const passed = burst.filter((r) => r.status === 200).length;
    expect(passed + burst.filter((r) => r.status === 429).length).toBe(burst.length);
    expect(passed).toBeLessThanOrEqual(API_KEY_LIMIT * windows);
    expect(passed).toBeGreaterThanOrEqual(1);

    // The demo passphrase: at most 10 wrong guesses per 15 minutes evaluated, whichever instance.
    const quarter = () => Math.floor(Date.now() / (15 * 60_000));
    const q0 = quarter();
    const guesses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        api("POST", "/api/demo/unlock", { body: { passphrase: `wrong ${i}` } }),
      ),
    );
    const evaluated = guesses.filter((g) => g.status !== 429).length;
    for (const g of guesses) expect([401, 403, 429], JSON.stringify(g.body)).toContain(g.status);
    expect(evaluated).toBeLessThanOrEqual(10 * (quarter() - q0 + 1));

    const slowest = load.reduce((a, b) => (b.ms > a.ms ? b : a));
    const statuses = new Map<number, number>();
    for (const { res } of load) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    console.log(
      `[multi-instance] load answers ${JSON.stringify(Object.fromEntries(statuses))} (slowest: ${slowest.deal.kind} ${slowest.res.status} ${slowest.res.body.error?.code ?? slowest.res.body.outcome ?? ""} after ${(slowest.ms / 1000).toFixed(1)} s); cron rounds ${rounds}; ${phases
        .slice(0, -1)
        .map(
          ([name, at], i) => `${name} ${(((phases[i + 1]?.[1] ?? at) - at) / 1000).toFixed(1)} s`,
        )
        .join(
          ", ",
        )}; served ${JSON.stringify(Object.fromEntries(proxy.served))}; webhook events ${receiver.webhooks.size}; e-mails ${receiver.mails.size}`,
    );

    // The proxy did spread the work.
    for (const i of instances) expect(proxy.served.get(i.name)).toBeGreaterThan(0);
  }, 600_000);
});
