import {
  BaseError,
  formatTransactionReceipt,
  type Hex,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  type RpcTransactionReceipt,
  type TransactionReceipt,
} from "viem";
import type { ChainPublicClient } from "@/lib/chain/clients";
import { chainConfig, publicClient } from "@/lib/chain/config";

// Receipts awaited by block. One loop per process (per read client) watches the chain's head
// (eth_blockNumber every few tens of ms while someone waits, nothing otherwise) and reads each
// new block's receipts in one request (eth_getBlockReceipts), handing each to whoever waits for
// its hash. N transactions waiting cost one head poll per tick and one read per block, instead
// of N receipt polls every few ms (≈30 eth_getTransactionReceipt per settle on a 2 s chain).
// A node without eth_getBlockReceipts is asked for each waited hash once per new block instead.
// The receipts of the last blocks read are kept, so a wait that starts just after its block was
// read finds it at once. The caller (lib/chain/sender.ts) asks for its receipt itself first,
// and again now and then: a node can report a block before its receipts are readable.

/** What a wait saw: a receipt of one of its hashes, or a new block without any, or neither. */
export type BlockWait = {
  receipt: TransactionReceipt | null;
  /** The new block read without the receipt (null: the wait timed out first). */
  block: bigint | null;
};

type Waiter = { hashes: Hex[]; done: (w: BlockWait) => void };

/** Blocks read at most per tick; a longer gap (a watcher idle meanwhile) is not read back. */
const MAX_BLOCKS_PER_TICK = 16;
/** Blocks whose receipts are kept for waits that start after their block was read. */
const KEEP_BLOCKS = 64;

/**
 * How often the head is polled while someone waits and a block is due: 50 ms locally (anvil
 * mines on arrival or every few seconds), 100 ms elsewhere. Between blocks of a chain with a
 * steady block time (as measured: the spacing of the heads seen), the watcher sleeps until
 * shortly before the next one is due.
 */
const tickMs = () => (chainConfig().known.name === "local" ? 50 : 100);

const isUnsupported = (err: unknown) =>
  err instanceof BaseError &&
  Boolean(
    err.walk((e) => e instanceof MethodNotFoundRpcError || e instanceof MethodNotSupportedRpcError),
  );

class BlockWatcher {
  private waiters = new Set<Waiter>();
  /** The highest block read (null: not started, or idle since). */
  private head: bigint | null = null;
  private kept = new Map<Hex, TransactionReceipt>();
  private keptBlocks: Array<Hex[]> = [];
  private running = false;
  /**
   * The pace of the chain, kept while idle: the last head seen; when the head was last seen
   * moving (ms) and in which spell of polling (`run` call); whether this spell has polled
   * before; the last spacings seen between single steps.
   */
  private seenHead: bigint | null = null;
  private movedAt = 0;
  private polling = false;
  private spell = 0;
  private movedIn = -1;
  private spacings: number[] = [];
  /** The node lacks eth_getBlockReceipts: each waited hash is asked for per block instead. */
  private perHash = false;
  private failures = 0;

  constructor(private client: ChainPublicClient) {}

  wait(hashes: Hex[], timeoutMs: number): Promise<BlockWait> {
    for (const h of hashes) {
      const r = this.kept.get(h);
      if (r) return Promise.resolve({ receipt: r, block: null });
    }
    // Only what was read already (no wait, no poll started for it).
    if (timeoutMs <= 0) return Promise.resolve({ receipt: null, block: null });
    return new Promise((resolve) => {
      const timer = setTimeout(() => waiter.done({ receipt: null, block: null }), timeoutMs);
      const waiter: Waiter = {
        hashes,
        done: (w) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(w);
        },
      };
      this.waiters.add(waiter);
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    this.spell++;
    try {
      while (this.waiters.size > 0) {
        // A failed read (node down): the waiters time out on their own; the next tick retries.
        await this.tick().catch(() => {});
        if (this.waiters.size === 0) break;
        await new Promise((r) => setTimeout(r, this.pause()));
      }
    } finally {
      this.running = false;
      // Idle: blocks mined meanwhile are not read back; the next wait starts at the head.
      this.head = null;
      this.polling = false;
    }
  }

  /**
   * Until the next poll: a tick; or, when the last four blocks came at a steady pace (within
   * 25 % of each other, and several ticks apart: not automine's blocks on demand), until two
   * ticks before the next one is due — counted from the last block seen, also across an idle
   * spell of up to ten blocks (a chain's blocks keep their pace while nobody waits).
   */
  private pause(): number {
    const tick = tickMs();
    const s = this.spacings;
    if (!this.movedAt || s.length < 4) return tick;
    const low = Math.min(...s);
    if (low < 4 * tick || Math.max(...s) > low * 1.25) return tick;
    const spacing = s.reduce((a, b) => a + b, 0) / s.length;
    const since = Date.now() - this.movedAt;
    if (since > 10 * spacing) return tick;
    const due = this.movedAt + Math.ceil((since + 2 * tick) / spacing) * spacing;
    return Math.max(tick, due - 2 * tick - Date.now());
  }

  /**
   * The head polled. Its pace (and when it moved) is learnt only from moves seen while polling
   * without a break: a move found after an idle spell may be long past.
   */
  private saw(head: bigint): void {
    const now = Date.now();
    const last = this.seenHead;
    if (last !== null && head <= last) return;
    this.seenHead = head;
    if (!this.polling || last === null) return;
    // A spacing only between two moves seen in this same spell of polling.
    if (this.movedIn === this.spell)
      this.spacings = head === last + 1n ? [...this.spacings, now - this.movedAt].slice(-4) : [];
    this.movedAt = now;
    this.movedIn = this.spell;
  }

  private async tick(): Promise<void> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    this.saw(head);
    this.polling = true;
    // Started (or restarted after idle): from the head's own block on. A transaction mined
    // before it is found by the caller's own receipt check.
    let from = this.head === null || this.perHash ? head : this.head + 1n;
    if (head - from >= BigInt(MAX_BLOCKS_PER_TICK)) from = head - BigInt(MAX_BLOCKS_PER_TICK) + 1n;
    if (from <= (this.head ?? -1n)) return; // no new block
    for (let n = from; n <= head; n++) {
      const receipts = await this.receiptsOf(n);
      if (receipts === null) break; // not readable yet: this block again next tick
      this.head = n;
      this.keep(receipts);
      for (const waiter of [...this.waiters]) {
        const found = waiter.hashes.map((h) => this.kept.get(h)).find(Boolean);
        waiter.done({ receipt: found ?? null, block: n });
      }
    }
  }

  /** A block's receipts (of the waited hashes only, per hash), or null when not readable. */
  private async receiptsOf(n: bigint): Promise<TransactionReceipt[] | null> {
    if (!this.perHash) {
      try {
        const raw: unknown = await this.client.request({
          method: "eth_getBlockReceipts",
          params: [`0x${n.toString(16)}`],
        } as never);
        this.failures = 0;
        if (!Array.isArray(raw)) return null;
        return raw.map((r) => formatTransactionReceipt(r as RpcTransactionReceipt));
      } catch (err) {
        // Refused by name, or failing again and again (some providers word it otherwise).
        if (isUnsupported(err) || ++this.failures >= 3) this.perHash = true;
        else throw err;
      }
    }
    const hashes = [...new Set([...this.waiters].flatMap((w) => w.hashes))];
    const found = await Promise.all(
      hashes.map((hash) => this.client.getTransactionReceipt({ hash }).catch(() => null)),
    );
    return found.filter((r): r is TransactionReceipt => r !== null && r.blockNumber <= n);
  }

  private keep(receipts: TransactionReceipt[]): void {
    for (const r of receipts) this.kept.set(r.transactionHash, r);
    this.keptBlocks.push(receipts.map((r) => r.transactionHash));
    while (this.keptBlocks.length > KEEP_BLOCKS)
      for (const h of this.keptBlocks.shift() ?? []) this.kept.delete(h);
  }
}

const watchers = new WeakMap<ChainPublicClient, BlockWatcher>();

/**
 * Waits, at most `timeoutMs`, until the next block is read: resolves with the receipt of one of
 * `hashes` when it was in a block read (this one or a recent one), else with the new block's
 * number, or with neither at the timeout. With no time to wait, only the recent blocks' receipts
 * are looked at.
 */
export function nextBlock(hashes: Hex[], timeoutMs: number): Promise<BlockWait> {
  const client = publicClient();
  let watcher = watchers.get(client);
  if (!watcher) {
    watcher = new BlockWatcher(client);
    watchers.set(client, watcher);
  }
  return watcher.wait(hashes, Math.max(0, timeoutMs));
}
