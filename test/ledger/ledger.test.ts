import { createClient } from "@milestone/client";
import type { Address, Hex } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as keysRoute from "@/app/api/keys/route";
import * as ledgerRoute from "@/app/api/ledger/route";
import * as ledgerCsvRoute from "@/app/api/ledger.csv/route";
import * as withdrawalsRoute from "@/app/api/wallet/withdrawals/route";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { chainConfig } from "@/lib/chain/config";
import { pollReceipt } from "@/lib/chain/sender";
import { dealKey } from "@/lib/escrow/onchain";
import { csvCell, getLedgerEntry } from "@/lib/ledger/ledger";
import { ledgerPageResponse } from "@/lib/ledger/schemas";
import { endpoints } from "@/lib/openapi";
import { settleMilestone } from "@/lib/settle/settle";
import { inProcessFetch } from "../api/in-process-fetch";
import { brandWallet, fundDeal, walletClientFor } from "../helpers/fund-deal";
import { type CallResult, call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import { makeUser, type TestUser } from "../helpers/users";
import { parties } from "../settle/fixtures";
import { answering, approve, submit } from "../verify/fixtures";
import { embeddedCreator } from "../wallet/helpers";

// The ledger (issue 27, point 5) on the real database and anvil: a brand with a funded deal
// whose first milestone was settled (46 paid to the creator, 4 back to the brand in the same
// release) and a funded deal it cancelled (both milestones refunded). Another user sees none
// of it; the creator sees the payout it received.

const HOSTILE_TITLE = '=HYPERLINK("http://evil.example","Click"), "quoted"';

let brand: TestUser;
let creator: TestUser;
let stranger: TestUser;
let funder: Address;
let settledDeal: { id: string; milestones: { id: string }[] };
let cancelledDeal: { id: string; milestones: { id: string }[] };
let releaseHash: string;
let fundingHash: Hex;

const newDeal = (title: string, amounts: number[]) => createDealFor(brand, amounts, { title });

const ledger = (user: TestUser, query = "") =>
  call(ledgerRoute.GET, { token: user.token, path: `/api/ledger${query}` });

beforeAll(async () => {
  ({ brand, creator } = await parties());
  stranger = await makeUser("organization");
  funder = (await brandWallet(brand, 100_000_000n)).address;

  settledDeal = await newDeal(HOSTILE_TITLE, [50, 30]);
  fundingHash = await fundDeal(brand, settledDeal.id);
  const taken = await call(acceptRoute.POST, {
    token: creator.token,
    params: { id: settledDeal.id },
  });
  expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  const milestoneId = settledDeal.milestones[0]?.id as string;
  await submit(creator, milestoneId);
  const paid = await settleMilestone(
    await getDb(),
    brand.user,
    { milestoneId, via: "direct" },
    { verifier: { model: answering(approve) } }, // 0.92 of 50: 46 paid, 4 back
  );
  if (paid.outcome !== "paid") throw new Error("not paid");
  releaseHash = paid.settlement.txHash as string;

  cancelledDeal = await newDeal("Cancelled campaign", [9, 11]);
  await fundDeal(brand, cancelledDeal.id);
  const account = await brandWallet(brand);
  const hash = await walletClientFor(account).writeContract({
    address: chainConfig().escrow as Address,
    abi: milestoneEscrowAbi,
    functionName: "cancel",
    args: [dealKey(account.address, cancelledDeal.id)],
  });
  await pollReceipt(hash, 30_000);
  const cancelled = await call(cancelRoute.POST, {
    token: brand.token,
    params: { id: cancelledDeal.id },
  });
  expect(cancelled.body.deal?.status, JSON.stringify(cancelled.body)).toBe("cancelled");
});

function documented(res: CallResult) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const e = endpoints.find((x) => x.method === "GET" && x.path === "/api/ledger");
  expect(e?.responseSchema).toBe(ledgerPageResponse);
  const parsed = ledgerPageResponse.parse(res.body);
  expect(parsed).toEqual(res.body); // every field documented
  return parsed;
}

describe("GET /api/ledger", () => {
  it("a brand's funding, release, remainder and refunds, with parties, transactions and the verdict hash", async () => {
    const { entries, nextCursor } = documented(await ledger(brand, "?limit=100"));
    expect(nextCursor).toBeNull();
    const summary = entries
      .map(
        (e) =>
          `${e.kind}/${e.reason ?? "-"} ${e.deal?.id === settledDeal.id ? "A" : "B"}${e.milestone ? e.milestone.position + 1 : ""} ${e.amount}`,
      )
      .sort();
    expect(summary).toEqual(
      [
        "funding/- A 80.000000",
        "funding/- B 20.000000",
        "release/- A1 46.000000",
        "refund/remainder A1 4.000000",
        "refund/cancel B1 9.000000",
        "refund/cancel B2 11.000000",
      ].sort(),
    );
    const escrow = chainConfig().escrow as string;
    const release = entries.find((e) => e.kind === "release");
    expect(release).toMatchObject({
      role: "brand",
      from: escrow,
      to: creator.user.walletAddress,
      counterparty: { address: creator.user.walletAddress },
      txHash: releaseHash,
      explorerUrl: `/explorer/tx/${releaseHash}`,
      currency: "USDC",
      amountUnits: "46000000",
    });
    expect(release?.verdictHash).toMatch(/^0x[0-9a-f]{64}$/);
    const remainder = entries.find((e) => e.reason === "remainder");
    expect(remainder).toMatchObject({
      txHash: releaseHash,
      to: funder,
      verdictHash: release?.verdictHash,
    });
    const funding = entries.find((e) => e.kind === "funding" && e.deal?.id === settledDeal.id);
    expect(funding).toMatchObject({
      from: funder,
      to: escrow,
      txHash: fundingHash,
      deal: { title: HOSTILE_TITLE },
      milestone: null,
      verdictHash: null,
    });
    for (const refund of entries.filter((e) => e.reason === "cancel"))
      expect(refund).toMatchObject({
        from: escrow,
        to: funder,
        txHash: expect.stringMatching(/^0x/),
      });
    // newest first
    const dates = entries.map((e) => e.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("the creator sees the payout it received, from the brand; nothing of the brand's own money", async () => {
    const { entries } = documented(await ledger(creator));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "release",
      role: "creator",
      amount: "46.000000",
      counterparty: { address: funder },
      to: creator.user.walletAddress,
    });
  });

  it("another user sees nothing of it, not even by deal id or entry id", async () => {
    expect(documented(await ledger(stranger)).entries).toEqual([]);
    expect(documented(await ledger(stranger, `?dealId=${settledDeal.id}`)).entries).toEqual([]);
    const { entries } = documented(await ledger(brand));
    const id = entries[0]?.id as string;
    await expect(getLedgerEntry(await getDb(), stranger.user, id)).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await getLedgerEntry(await getDb(), brand.user, id)).id).toBe(id);
  });

  it("filters by kind, deal and date (a `to` date includes its day)", async () => {
    const kinds = async (q: string) =>
      documented(await ledger(brand, q))
        .entries.map((e) => `${e.kind}/${e.reason ?? "-"}`)
        .sort();
    expect(await kinds("?kind=refund")).toEqual([
      "refund/cancel",
      "refund/cancel",
      "refund/remainder",
    ]);
    expect(await kinds(`?dealId=${cancelledDeal.id}`)).toEqual([
      "funding/-",
      "refund/cancel",
      "refund/cancel",
    ]);
    expect(await kinds("?kind=withdrawal")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await kinds(`?from=${today}&to=${today}`)).toHaveLength(6);
    expect(await kinds(`?from=${tomorrow}`)).toEqual([]);
    expect(await kinds(`?to=${yesterday}`)).toEqual([]);
    const bad = await ledger(brand, "?from=last+week");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });

  it("pages with a cursor: every entry once, in order; a foreign cursor is refused", async () => {
    const all = documented(await ledger(brand, "?limit=100")).entries.map((e) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = documented(
        await ledger(brand, `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
      );
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(seen).toEqual(all);
    const foreign = await ledger(brand, `?cursor=${encodeURIComponent("eyJ4IjoxfQ.abc")}`);
    expect(foreign.status).toBe(400);
  });

  it("the typed client pages through it with a read-scoped API key", async () => {
    const key = await call(keysRoute.POST, {
      path: "/api/keys",
      token: brand.token,
      body: { name: "accountant", scopes: ["read"] },
    });
    const api = createClient({
      baseUrl: "http://localhost",
      apiKey: key.body.key,
      fetch: inProcessFetch,
    });
    const ids: string[] = [];
    for await (const e of api.allLedgerEntries({ kind: "refund" })) ids.push(e.id);
    expect(ids).toHaveLength(3);
    expect(await api.ledgerCsv({ kind: "funding" })).toMatch(/^date,id,kind,/);
  });
});

/** RFC 4180 rows of a CSV text (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

describe("withdrawals", () => {
  it("money sent out of the embedded wallet is the sender's entry, nobody else's", async () => {
    const sender = await embeddedCreator(20_000_000n);
    const to = "0x000000000000000000000000000000000000dEaD";
    const sent = await call(withdrawalsRoute.POST, {
      token: sender.token,
      body: { to, amount: "12.5" },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const { entries } = documented(
      await call(ledgerRoute.GET, { token: sender.token, path: "/api/ledger?kind=withdrawal" }),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "withdrawal",
      role: "account",
      deal: null,
      milestone: null,
      amount: "12.500000",
      from: sender.wallet,
      to,
      counterparty: { address: to },
      txHash: sent.body.withdrawal.txHash,
    });
    expect(documented(await ledger(brand, "?kind=withdrawal")).entries).toEqual([]);
    expect(documented(await ledger(stranger)).entries).toEqual([]);
  });
});

describe("GET /api/ledger.csv", () => {
  it("an attachment, one row per entry, RFC 4180 quoting, formulas neutralised", async () => {
    const res = await call(ledgerCsvRoute.GET, { token: brand.token, path: "/api/ledger.csv" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="milestone-ledger-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = res.body as string;
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(text);
    const [header, ...data] = rows;
    expect(header?.slice(0, 9)).toEqual([
      "date",
      "id",
      "kind",
      "reason",
      "role",
      "deal_id",
      "deal",
      "milestone",
      "amount",
    ]);
    expect(data).toHaveLength(6);
    for (const r of data) expect(r).toHaveLength(header?.length ?? 0);
    const col = (name: string) => header?.indexOf(name) ?? -1;
    const release = data.find((r) => r[col("kind")] === "release") as string[];
    expect(release[col("deal")]).toBe(`'${HOSTILE_TITLE}`); // a formula no more
    expect(release[col("amount")]).toBe("46.000000");
    expect(release[col("milestone")]).toBe("1. Post 1");
    expect(release[col("explorer_url")]).toBe(`http://localhost/explorer/tx/${releaseHash}`);
    // the raw text: the title quoted, its quotes doubled, the apostrophe inside the quotes
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Click""), ""quoted"""`);

    const viaFormat = await call(ledgerRoute.GET, {
      token: brand.token,
      path: "/api/ledger?format=csv",
    });
    expect(viaFormat.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(parseCsv(viaFormat.body as string)).toEqual(rows);

    const stranger_ = await call(ledgerCsvRoute.GET, {
      token: stranger.token,
      path: "/api/ledger.csv",
    });
    expect(parseCsv(stranger_.body as string)).toEqual([header]);
  });

  it("cells: formula starts prefixed, separators quoted", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("46.000000")).toBe("46.000000");
    expect(csvCell(null)).toBe("");
  });
});
