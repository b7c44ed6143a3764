// npm run bench (part 3) — the deal lists as they grow, against a bare query, same run.
//
//   brand list at N deals    listDeals for a brand owning N deals (two milestones each), the
//                            first page as the API answers it, vs. the bare keyset query of
//                            one page of that brand's deal rows (the floor)
//   creator open list        the creator's open-deal list with every deal above open
//   creator open list at N   the creator's open-deal list when N of the 11,110 deals are open
//                            and the rest, all other brands' deals, are unfunded: 1,000 open
//                            against 100 open (the list must not grow with the open deals)
//   rss                      resident memory before and after repeated calls at the largest size
// BENCH_LIST_REPS (default 20) calls per figure; the median is reported. BENCH_EXPLAIN=1
// prints the plan (EXPLAIN ANALYZE) of the open list's page query at each size.
import { performance } from "node:perf_hooks";
import { benchEnvironment, benchParties, median, printRows, type Row } from "./setup";

const SIZES = [10, 100, 1_000, 10_000];
const REPS = Number(process.env.BENCH_LIST_REPS ?? 20);

async function main() {
  const env = await benchEnvironment();
  const { db } = env;
  const { sql } = await import("drizzle-orm");
  const { users } = await import("@/db/schema");
  const { listDeals } = await import("@/lib/deals/deals");
  const { randomUUID } = await import("node:crypto");

  const { creator } = await benchParties(env);
  const brands: Array<{ n: number; brand: typeof creator }> = [];
  for (const n of SIZES) {
    const [brand] = await db
      .insert(users)
      .values({
        issuer: "bench",
        subject: randomUUID(),
        email: `brand-${n}@bench.invalid`,
        profileType: "organization",
        displayName: `Brand with ${n} deals`,
      })
      .returning();
    if (!brand) throw new Error("no brand");
    // N open deals with two milestones each, created a second apart (newest first = g = 1).
    await db.execute(sql`
      insert into deals (brand_id, title, platform, status, budget_units, funded_at, created_at)
      select ${brand.id}, 'Bench deal ' || g, case when g % 2 = 0 then 'instagram' else 'tiktok' end,
             'open', 20000000, now(), now() - make_interval(secs => g)
      from generate_series(1, ${n}) g`);
    await db.execute(sql`
      insert into milestones (deal_id, position, title, amount_units, requirements)
      select d.id, p, 'Milestone ' || p, 10000000,
             '{"hashtags":["#bench"],"mentions":[],"links":[],"criteria":[]}'::jsonb
      from deals d cross join generate_series(0, 1) p
      where d.brand_id = ${brand.id}`);
    brands.push({ n, brand });
  }
  await db.execute(sql`analyze`);

  const bare = (brandId: string) =>
    db.execute(sql`
      select * from deals where brand_id = ${brandId}
      order by created_at desc, id desc limit 20`);

  async function time(fn: () => Promise<unknown>): Promise<number> {
    await fn(); // warm
    const xs: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
    }
    return median(xs);
  }

  const rows: Row[] = [];
  const sizes: Record<number, number> = {};
  for (const { n, brand } of brands) {
    const base = await time(() => bare(brand.id));
    let bytes = 0;
    const measured = await time(async () => {
      const out = await listDeals(db, brand);
      bytes = JSON.stringify(out).length;
    });
    sizes[n] = measured;
    rows.push([
      `brand deal list, ${n} deals (${(bytes / 1024).toFixed(0)} KiB) vs bare page`,
      base,
      measured,
      "ms",
    ]);
  }
  const total = SIZES.reduce((a, b) => a + b, 0);
  const openBase = await time(() =>
    db.execute(sql`
      select * from deals where status = 'open' and creator_id is null
      order by created_at desc, id desc limit 20`),
  );
  let openBytes = 0;
  const open = await time(async () => {
    const out = await listDeals(db, creator, { open: true });
    openBytes = JSON.stringify(out).length;
  });
  rows.push([
    `creator open list, ${total} open (${(openBytes / 1024).toFixed(0)} KiB) vs bare page`,
    openBase,
    open,
    "ms",
  ]);
  // The open list as open deals grow among many unfunded ones: N open, the rest unfunded
  // (each brand keeps its own; which deals stay open is spread over every brand and age).
  const openAt: Record<number, number> = {};
  const openByBudgetAt: Record<number, number> = {};
  for (const n of [100, 1_000]) {
    await db.execute(sql`
      update deals set status = case when k.r <= ${n} then 'open' else 'unfunded' end,
        funded_at = case when k.r <= ${n} then now() else null end
      from (select id, row_number() over (order by md5(id::text)) r from deals) k
      where deals.id = k.id`);
    await db.execute(sql`analyze deals`);
    openAt[n] = await time(() => listDeals(db, creator, { open: true }));
    openByBudgetAt[n] = await time(() => listDeals(db, creator, { open: true, sort: "budget" }));
    if (process.env.BENCH_EXPLAIN === "1") {
      // The page query of db/queries/deals.ts listOpenDealsPage, as it reaches the server.
      for (const order of [
        sql`created_at desc, id desc`,
        sql`budget_units desc, created_at desc, id desc`,
      ]) {
        const plan = await db.execute(sql`explain (analyze, buffers, costs off)
          select * from deals where creator_id is null and status = 'open'
            and (invite_email is null or lower(invite_email) = lower(${creator.email}))
            and brand_id <> ${creator.id}
          order by ${order} limit 21`);
        const lines = (Array.isArray(plan) ? plan : (plan as { rows: unknown[] }).rows).map(
          (r) => Object.values(r as Record<string, string>)[0],
        );
        console.log(`\nopen list page at ${n} open of ${total}:\n  ${lines.join("\n  ")}`);
      }
    }
  }
  rows.push([
    "creator open list, 1,000 open vs 100 open (rest unfunded)",
    openAt[100] ?? Number.NaN,
    openAt[1_000] ?? Number.NaN,
    "ms",
  ]);
  rows.push([
    "creator open list by budget, 1,000 open vs 100 open",
    openByBudgetAt[100] ?? Number.NaN,
    openByBudgetAt[1_000] ?? Number.NaN,
    "ms",
  ]);
  rows.push([
    "brand list at 10,000 deals vs at 100 deals",
    sizes[100] ?? Number.NaN,
    sizes[10_000] ?? Number.NaN,
    "ms",
  ]);

  const largest = brands.at(-1)?.brand;
  if (!largest) throw new Error("no brands");
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  for (let i = 0; i < REPS * 2; i++) await listDeals(db, largest);
  gc?.();
  const rssAfter = process.memoryUsage().rss;
  rows.push([
    `RSS before vs after ${REPS * 2} calls at 10,000 deals`,
    rssBefore / 2 ** 20,
    rssAfter / 2 ** 20,
    "MiB",
  ]);

  printRows(`Deal lists — ${REPS} calls per figure, median; database: ${env.driver}`, rows);
  await env.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
