import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  type Hex,
  keccak256,
  parseEventLogs,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil as anvilChain } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reputationRegistryAbi } from "@/contracts/artifacts";
import { type AnvilInstance, devAccountKey, startAnvil } from "@/lib/chain/anvil";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  makePublicClient,
  makeWalletClient,
} from "@/lib/chain/clients";
import { deployLocalContracts } from "@/lib/chain/deploy";

let node: AnvilInstance;
let pub: ChainPublicClient;
let owner: ChainWalletClient; // dev 0: deployer, registry owner
let attestor: ChainWalletClient; // dev 1: the only writer
let stranger: ChainWalletClient; // dev 2
let registry: Address;

/** The revert reason (require string or custom error name) of a failed contract call. */
async function revertReason(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    const reverted =
      err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      return reverted.reason ?? reverted.data?.errorName;
    }
    throw err;
  }
  throw new Error("expected the call to revert");
}

const newWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const ref = (label: string): Hex => keccak256(toHex(`milestone:${label}:${Math.random()}`));

function record(sender: ChainWalletClient, wallet: Address, scoreBps: number, milestoneRef: Hex) {
  return sender.writeContract({
    address: registry,
    abi: reputationRegistryAbi,
    functionName: "recordSettlement",
    args: [wallet, scoreBps, milestoneRef, 1_000_000n],
  });
}

async function recordOk(wallet: Address, scoreBps: number, milestoneRef = ref("ok")) {
  const receipt = await pub.waitForTransactionReceipt({
    hash: await record(attestor, wallet, scoreBps, milestoneRef),
  });
  expect(receipt.status).toBe("success");
  return receipt;
}

const reputationOf = (wallet: Address) =>
  pub.readContract({
    address: registry,
    abi: reputationRegistryAbi,
    functionName: "reputationOf",
    args: [wallet],
  });

beforeAll(async () => {
  node = await startAnvil();
  const config = { chain: anvilChain, rpcUrl: node.rpcUrl };
  pub = makePublicClient(config);
  owner = makeWalletClient(config, devAccountKey(0));
  attestor = makeWalletClient(config, devAccountKey(1));
  stranger = makeWalletClient(config, devAccountKey(2));
  ({ registry } = await deployLocalContracts({
    rpcUrl: node.rpcUrl,
    deployerKey: devAccountKey(0),
    attestor: attestor.account.address,
  }));
});

afterAll(async () => {
  await node?.stop();
});

describe("ReputationRegistry", () => {
  it("starts empty and knows its attestor and owner", async () => {
    const read = (f: "attestor" | "owner") =>
      pub.readContract({ address: registry, abi: reputationRegistryAbi, functionName: f });
    expect(await read("attestor")).toBe(attestor.account.address);
    expect(await read("owner")).toBe(owner.account.address);
    expect(await reputationOf(newWallet())).toEqual([0n, 0]);
  });

  it("accepts writes only from the attestor (not even the owner)", async () => {
    const wallet = newWallet();
    expect(await revertReason(record(stranger, wallet, 9000, ref("x")))).toBe("NotAttestor");
    expect(await revertReason(record(owner, wallet, 9000, ref("x")))).toBe("NotAttestor");
    expect(await reputationOf(wallet)).toEqual([0n, 0]);
  });

  it("bounds the score to 10000 bps and rejects a zero milestone ref", async () => {
    const wallet = newWallet();
    expect(await revertReason(record(attestor, wallet, 10_001, ref("big")))).toBe(
      "ScoreOutOfRange",
    );
    expect(await revertReason(record(attestor, wallet, 5000, `0x${"00".repeat(32)}`))).toBe(
      "ZeroMilestoneRef",
    );
    await recordOk(wallet, 10_000);
    expect(await reputationOf(wallet)).toEqual([1n, 10_000]);
  });

  it("records each milestone once, so a retried write cannot double-count", async () => {
    const wallet = newWallet();
    const milestoneRef = ref("once");
    await recordOk(wallet, 8000, milestoneRef);
    expect(await revertReason(record(attestor, wallet, 8000, milestoneRef))).toBe(
      "AlreadyRecorded",
    );
    // Also for a different wallet: the ref identifies the milestone, not the pair.
    expect(await revertReason(record(attestor, newWallet(), 8000, milestoneRef))).toBe(
      "AlreadyRecorded",
    );
    expect(
      await pub.readContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "isRecorded",
        args: [milestoneRef],
      }),
    ).toBe(true);
    expect(await reputationOf(wallet)).toEqual([1n, 8000]);
  });

  it("keeps count, total and a floored mean over several records", async () => {
    const wallet = newWallet();
    for (const score of [8000, 9000, 10_000, 7001]) await recordOk(wallet, score);
    const read = (f: "count" | "totalScoreBps" | "meanScoreBps") =>
      pub.readContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: f,
        args: [wallet],
      });
    expect(await read("count")).toBe(4n);
    expect(await read("totalScoreBps")).toBe(34_001n);
    expect(await read("meanScoreBps")).toBe(8500); // 34001 / 4 = 8500.25
    expect(await reputationOf(wallet)).toEqual([4n, 8500]);
    expect(await reputationOf(newWallet())).toEqual([0n, 0]);
  });

  it("emits SettlementRecorded with the running count and mean", async () => {
    const wallet = newWallet();
    await recordOk(wallet, 6000);
    const milestoneRef = ref("event");
    const receipt = await pub.waitForTransactionReceipt({
      hash: await attestor.writeContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "recordSettlement",
        args: [wallet, 9001, milestoneRef, 1_234_567n],
      }),
    });
    const events = parseEventLogs({ abi: reputationRegistryAbi, logs: receipt.logs });
    expect(events).toHaveLength(1);
    expect(events[0]?.eventName).toBe("SettlementRecorded");
    expect(events[0]?.args).toEqual({
      wallet,
      milestoneRef,
      scoreBps: 9001,
      amount: 1_234_567n,
      count: 2n,
      meanScoreBps: 7500, // (6000 + 9001) / 2 = 7500.5, floored
    });
  });

  describe("recordSettlements", () => {
    type Rec = { wallet: Address; scoreBps: number; milestoneRef: Hex; amount: bigint };
    const batch = (sender: ChainWalletClient, records: Rec[]) =>
      sender.writeContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "recordSettlements",
        args: [records],
      });
    /** Each record's outcome in order: written, or skipped with recordSettlement's refusal. */
    async function outcomes(hash: Hex) {
      const receipt = await pub.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      return parseEventLogs({ abi: reputationRegistryAbi, logs: receipt.logs }).map((e) =>
        e.eventName === "SettlementRecorded"
          ? ["recorded", e.args.milestoneRef]
          : e.eventName === "RecordSkipped"
            ? [
                decodeErrorResult({ abi: reputationRegistryAbi, data: e.args.reason }).errorName,
                e.args.milestoneRef,
              ]
            : [e.eventName],
      );
    }

    it("writes each record as recordSettlement would, skipping the ones it would refuse", async () => {
      const wallet = newWallet();
      const done = ref("done");
      await recordOk(wallet, 5000, done);
      const [a, b] = [ref("a"), ref("b")];
      const zero = `0x${"00".repeat(32)}` as Hex;
      const records: Rec[] = [
        { wallet, scoreBps: 9000, milestoneRef: a, amount: 1n },
        { wallet, scoreBps: 9000, milestoneRef: done, amount: 1n },
        { wallet, scoreBps: 9000, milestoneRef: a, amount: 1n },
        { wallet, scoreBps: 10_001, milestoneRef: ref("big"), amount: 1n },
        { wallet, scoreBps: 9000, milestoneRef: zero, amount: 1n },
        {
          wallet: "0x0000000000000000000000000000000000000000",
          scoreBps: 1,
          milestoneRef: ref("z"),
          amount: 1n,
        },
        { wallet, scoreBps: 7000, milestoneRef: b, amount: 1n },
      ];
      const { result } = await pub.simulateContract({
        account: attestor.account,
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "recordSettlements",
        args: [records],
      });
      expect(result).toBe(2n);
      expect(await outcomes(await batch(attestor, records))).toEqual([
        ["recorded", a],
        ["AlreadyRecorded", done],
        ["AlreadyRecorded", a],
        ["ScoreOutOfRange", records[3]?.milestoneRef],
        ["ZeroMilestoneRef", zero],
        ["ZeroAddress", records[5]?.milestoneRef],
        ["recorded", b],
      ]);
      expect(await reputationOf(wallet)).toEqual([3n, 7000]); // (5000 + 9000 + 7000) / 3
      // The same batch again writes nothing.
      const again = await outcomes(await batch(attestor, records));
      expect(again.filter(([o]) => o === "recorded")).toEqual([]);
      expect(await reputationOf(wallet)).toEqual([3n, 7000]);
    });

    it("only the attestor, 1 to MAX_BATCH records", async () => {
      const one: Rec = { wallet: newWallet(), scoreBps: 1, milestoneRef: ref("o"), amount: 1n };
      expect(await revertReason(batch(stranger, [one]))).toBe("NotAttestor");
      expect(await revertReason(batch(owner, [one]))).toBe("NotAttestor");
      expect(await revertReason(batch(attestor, []))).toBe("InvalidBatchSize");
      const max = await pub.readContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "MAX_BATCH",
      });
      expect(
        await revertReason(
          batch(
            attestor,
            Array.from({ length: Number(max) + 1 }, () => one),
          ),
        ),
      ).toBe("InvalidBatchSize");
      expect(await reputationOf(one.wallet)).toEqual([0n, 0]);
    });

    it("random batches keep every wallet's count and total equal to its distinct records", async () => {
      // Seeded: 25 batches of up to 8 records over 12 refs and 3 wallets (repeats, refs
      // recorded before, scores out of range). The model writes a ref the first time only.
      let seed = 0x5eed;
      const rand = (n: number) => {
        seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
        return seed % n;
      };
      const wallets = [newWallet(), newWallet(), newWallet()];
      const refs = Array.from({ length: 12 }, (_, i) => ref(`walk${i}`));
      const recorded = new Set<Hex>();
      const model = new Map(wallets.map((w) => [w, { count: 0n, total: 0n }]));
      for (let step = 0; step < 25; step++) {
        const records: Rec[] = Array.from({ length: 1 + rand(8) }, () => ({
          wallet: wallets[rand(3)] as Address,
          scoreBps: rand(10) === 0 ? 10_001 + rand(100) : rand(10_001),
          milestoneRef: refs[rand(refs.length)] as Hex,
          amount: BigInt(rand(1_000_000)),
        }));
        const expected = records.map((r) => {
          if (r.scoreBps > 10_000) return ["ScoreOutOfRange", r.milestoneRef];
          if (recorded.has(r.milestoneRef)) return ["AlreadyRecorded", r.milestoneRef];
          recorded.add(r.milestoneRef);
          const m = model.get(r.wallet) as { count: bigint; total: bigint };
          m.count += 1n;
          m.total += BigInt(r.scoreBps);
          return ["recorded", r.milestoneRef];
        });
        expect(await outcomes(await batch(attestor, records)), `step ${step}`).toEqual(expected);
      }
      for (const w of wallets) {
        const m = model.get(w) as { count: bigint; total: bigint };
        const total = await pub.readContract({
          address: registry,
          abi: reputationRegistryAbi,
          functionName: "totalScoreBps",
          args: [w],
        });
        expect([(await reputationOf(w))[0], total]).toEqual([m.count, m.total]);
      }
      expect(recorded.size).toBeGreaterThan(6);
    });
  });

  it("lets only the owner change the attestor", async () => {
    const next = stranger.account.address;
    const setAttestor = (sender: ChainWalletClient, a: Address) =>
      sender.writeContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "setAttestor",
        args: [a],
      });
    expect(await revertReason(setAttestor(attestor, next))).toBe("OwnableUnauthorizedAccount");

    const receipt = await pub.waitForTransactionReceipt({ hash: await setAttestor(owner, next) });
    const [changed] = parseEventLogs({
      abi: reputationRegistryAbi,
      logs: receipt.logs,
      eventName: "AttestorChanged",
    });
    expect(changed?.args).toEqual({
      previousAttestor: attestor.account.address,
      newAttestor: next,
    });

    const wallet = newWallet();
    expect(await revertReason(record(attestor, wallet, 9000, ref("old")))).toBe("NotAttestor");
    const ok = await pub.waitForTransactionReceipt({
      hash: await record(stranger, wallet, 9000, ref("new")),
    });
    expect(ok.status).toBe("success");
    expect(await reputationOf(wallet)).toEqual([1n, 9000]);
  });
});
