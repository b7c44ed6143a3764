import {
  type Address,
  BaseError,
  ContractFunctionZeroDataError,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  pad,
  parseEventLogs,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { reputationRegistryAbi } from "@/contracts/artifacts";
import type { Db } from "@/db/client";
import {
  findConfirmedCarrying,
  findLatestByPurpose,
  lockPurpose,
} from "@/db/queries/chain-transactions";
import type { ChainTransaction } from "@/db/schema";
import { address, score } from "@/lib/api/fields";
import { type ChainConfig, chainConfig, publicClient, requireTreasury } from "@/lib/chain/config";
import {
  broadcastAndAwait,
  chainUnavailable,
  isTransportError,
  type Link,
  recordTransaction,
  resumeTransaction,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";

// The on-chain reputation registry: every settled milestone is recorded once, by the
// attestor (the treasury key), as (wallet, score in basis points, milestone reference).
//
// milestoneRef: the milestone's UUID as 16 bytes, left-padded with zeros to bytes32
// (`0x` + 32 zeros + the UUID's hex without dashes). Unlike a hash it is reversible, so the
// explorer can show which milestone a record belongs to; it is never zero for a UUID.

export const reputationResponse = z
  .object({
    wallet: address,
    chainId: z.number().int(),
    registry: address,
    count: z.number().int().nonnegative(),
    score: score.nullable().describe("Mean score; null before any record"),
  })
  .meta({ id: "Reputation" });
export type Reputation = z.infer<typeof reputationResponse>;

export type RecordReputationInput = {
  wallet: Address;
  /** Integer basis points, 0..10000. */
  scoreBps: number;
  milestoneId: string;
  /** The amount paid for the milestone, USDC base units (informational, in the event). */
  amountUnits: bigint;
};

export type RecordReputationResult = {
  /** `already_recorded`: the registry had it; nothing was sent by this call. */
  status: "recorded" | "already_recorded";
  milestoneRef: Hex;
  /** This call's (or the earlier attempt's) transaction, when the service sent one. */
  transaction: ChainTransaction | null;
  txHash: Hex | null;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** bytes32 reference of a milestone: its UUID, left-padded with zeros. */
export function milestoneRef(milestoneId: string): Hex {
  if (!uuidPattern.test(milestoneId)) throw new RangeError(`not a UUID: ${milestoneId}`);
  return pad(`0x${milestoneId.replaceAll("-", "").toLowerCase()}`, { size: 32 });
}

/** The milestone UUID inside a reference made by milestoneRef, or null for any other bytes32. */
export function milestoneIdFromRef(ref: Hex): string | null {
  const hex = ref.toLowerCase();
  if (!/^0x0{32}[0-9a-f]{32}$/.test(hex)) return null;
  const h = hex.slice(34);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function requireRegistry(config: ChainConfig = chainConfig()): Address {
  if (!config.registry)
    throw new AppError(
      "not_configured",
      config.known.name === "local"
        ? "The local chain has no reputation registry yet: start the app with `npm run dev`."
        : "REPUTATION_REGISTRY_ADDRESS is not configured (npm run contracts:deploy prints it).",
    );
  return config.registry;
}

/** Read errors: node down → 502; no contract at the configured address → 503. */
function readFailure(err: unknown, registry: Address): unknown {
  if (err instanceof BaseError) {
    if (err.walk((e) => e instanceof ContractFunctionZeroDataError))
      return new AppError("not_configured", `No reputation registry found at ${registry}.`, {
        cause: err,
      });
    if (isTransportError(err)) return chainUnavailable(err);
  }
  return err;
}

/** A wallet's reputation as the registry reports it. */
export async function readReputation(wallet: Address): Promise<Reputation> {
  const config = chainConfig();
  const registry = requireRegistry(config);
  const address = getAddress(wallet);
  let count: bigint;
  let meanBps: number;
  try {
    [count, meanBps] = await publicClient().readContract({
      address: registry,
      abi: reputationRegistryAbi,
      functionName: "reputationOf",
      args: [address],
    });
  } catch (err) {
    throw readFailure(err, registry);
  }
  return {
    wallet: address,
    chainId: config.chainId,
    registry,
    count: Number(count),
    score: count === 0n ? null : meanBps / 10_000,
  };
}

/** `pending`: as the node's pool would leave it (what a gas estimate sees, on anvil). */
async function registryState(registry: Address, ref: Hex, blockTag?: "pending") {
  const client = publicClient();
  try {
    const [recorded, attestor] = await Promise.all([
      client.readContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "isRecorded",
        args: [ref],
        blockTag,
      }),
      client.readContract({
        address: registry,
        abi: reputationRegistryAbi,
        functionName: "attestor",
      }),
    ]);
    return { recorded, attestor };
  } catch (err) {
    throw readFailure(err, registry);
  }
}

class AttemptInFlight extends Error {}

const done = (status: RecordReputationResult["status"], ref: Hex, tx: ChainTransaction | null) => ({
  status,
  milestoneRef: ref,
  transaction: tx,
  txHash: (tx?.hash as Hex | undefined) ?? null,
});

/**
 * Records a settled milestone in the registry, through the sender with the treasury key
 * (the registry's attestor). Idempotent per milestone: already on-chain → nothing is sent;
 * an earlier attempt left unfinished → that very transaction is resumed. `link` runs in
 * the database transaction that records the signed transaction (e.g. to store its hash on
 * the settlement). Throws 502 chain_unavailable when the node is down (retry resumes).
 */
export async function recordReputation(
  db: Db,
  input: RecordReputationInput,
  link?: Link,
): Promise<RecordReputationResult> {
  if (!Number.isInteger(input.scoreBps) || input.scoreBps < 0 || input.scoreBps > 10_000)
    throw new RangeError("scoreBps must be an integer in [0, 10000]");
  if (input.amountUnits < 0n) throw new RangeError("amountUnits must not be negative");
  const wallet = getAddress(input.wallet);
  if (isAddressEqual(wallet, zeroAddress)) throw new RangeError("wallet must not be zero");
  const config = chainConfig();
  const registry = requireRegistry(config);
  const key = requireTreasury(config);
  const ref = milestoneRef(input.milestoneId);
  const purpose = `reputation:${registry}:${ref}`;
  const scope = { chainId: config.chainId, purpose };

  const state = await registryState(registry, ref);
  if (state.recorded) return done("already_recorded", ref, await recordedBy(db, registry, ref));
  const treasury = privateKeyToAccount(key).address;
  if (!isAddressEqual(state.attestor, treasury))
    throw new AppError(
      "not_configured",
      `The treasury ${treasury} is not the registry's attestor (${state.attestor}).`,
    );

  const earlier = await findLatestByPurpose(db, { ...scope, statuses: ["pending", "submitted"] });
  if (earlier) return done("recorded", ref, await resumeTransaction(db, earlier));

  let recorded: ChainTransaction;
  try {
    recorded = await recordUnderPurpose(
      db,
      encodeFunctionData({
        abi: reputationRegistryAbi,
        functionName: "recordSettlement",
        args: [wallet, input.scoreBps, ref, input.amountUnits],
      }),
      scope,
      link,
    );
  } catch (err) {
    if (err instanceof AttemptInFlight) {
      // That attempt may have finished meanwhile: follow it whatever its state.
      const other = await findLatestByPurpose(db, scope);
      return done("recorded", ref, other ? await resumeTransaction(db, other) : null);
    }
    // The sender refuses a call that would revert: most likely another attempt got the
    // record on-chain in the meantime (AlreadyRecorded), or has it in the node's pool — the
    // estimate may see pending transactions. Then this is a success (the settlement keeps no
    // hash until that transaction is mined and confirmed: the next drain finds it).
    const recheck = await registryState(registry, ref, "pending").catch(() => null);
    if (recheck?.recorded)
      return done("already_recorded", ref, await recordedBy(db, registry, ref));
    throw err;
  }
  const sent = await broadcastAndAwait(db, recorded);
  // Reverted: if only because the milestone got recorded meanwhile, that is the answer.
  if (sent.status === "failed" && (await registryState(registry, ref)).recorded)
    return done("already_recorded", ref, await findLatestByPurpose(db, scope));
  return done("recorded", ref, sent);
}

/**
 * Records a call to the registry (signed by the treasury) under its purpose's lock (the
 * sender holds no lock here): when a concurrent call recorded an attempt for the same purpose
 * first — any live one, or only unfinished ones with `statuses` — that one wins and this
 * throws AttemptInFlight (the sender fills the loser's nonce).
 */
async function recordUnderPurpose(
  db: Db,
  data: Hex,
  scope: { chainId: number; purpose: string; statuses?: ChainTransaction["status"][] },
  link?: Link,
): Promise<ChainTransaction> {
  const config = chainConfig();
  return recordTransaction(
    db,
    requireTreasury(config),
    { to: requireRegistry(config), data, purpose: scope.purpose },
    async (tx, row) => {
      // Sent together (one round trip), run in this order: the lookup once the lock is held.
      const [, other] = await Promise.all([
        lockPurpose(tx, scope.purpose),
        findLatestByPurpose(tx, { ...scope, excludeId: row.id }),
      ]);
      if (other) throw new AttemptInFlight();
      if (link) await link(tx, row);
    },
  );
}

/** The purpose of the reputation batches sent to `registry` (one in flight at a time). */
const batchPurpose = (registry: Address) => `reputation-batch:${registry}`;

/**
 * The transaction of ours that wrote `ref` to the registry: its own record, else the first
 * confirmed batch that carried it (a batch's answer lost, e.g. to a crash), else null (written
 * by someone else).
 */
async function recordedBy(db: Db, registry: Address, ref: Hex): Promise<ChainTransaction | null> {
  const chainId = chainConfig().chainId;
  return (
    (await findLatestByPurpose(db, { chainId, purpose: `reputation:${registry}:${ref}` })) ??
    (await findConfirmedCarrying(db, {
      chainId,
      purpose: batchPurpose(registry),
      needle: ref.slice(2),
    }))
  );
}

export type RecordReputationsResult = {
  /** The batch this call sent or followed; null when none was sent. */
  transaction: ChainTransaction | null;
  /** By milestone id: the ones that batch wrote (confirmed). */
  written: Set<string>;
  /** The milestone ids that batch carried (written, skipped, or still in flight). */
  carried: Set<string>;
};

/**
 * Records several settled milestones in one recordSettlements transaction (the treasury is
 * the attestor). The registry writes each once and skips the rest (already recorded…), so a
 * batch sent twice or overlapping another never counts twice. At most one batch per registry
 * is in flight: an unfinished one is resumed instead of sending another (its milestones are
 * then those it carried, not `inputs`), under the purpose's lock as recordReputation does for
 * one milestone. Throws like the sender (a node down, a batch that would revert): the caller
 * records them one by one instead.
 */
export async function recordReputations(
  db: Db,
  inputs: RecordReputationInput[],
): Promise<RecordReputationsResult> {
  const config = chainConfig();
  const inFlight = {
    chainId: config.chainId,
    purpose: batchPurpose(requireRegistry(config)),
    statuses: ["pending", "submitted"] as ChainTransaction["status"][],
  };
  const earlier = await findLatestByPurpose(db, inFlight);
  if (earlier) return batchOutcome(await resumeTransaction(db, earlier));
  const records = inputs.map((i) => ({
    wallet: getAddress(i.wallet),
    scoreBps: i.scoreBps,
    milestoneRef: milestoneRef(i.milestoneId),
    amount: i.amountUnits,
  }));
  let recorded: ChainTransaction;
  try {
    recorded = await recordUnderPurpose(
      db,
      encodeFunctionData({
        abi: reputationRegistryAbi,
        functionName: "recordSettlements",
        args: [records],
      }),
      inFlight,
    );
  } catch (err) {
    if (!(err instanceof AttemptInFlight)) throw err;
    const other = await findLatestByPurpose(db, inFlight);
    return other
      ? batchOutcome(await resumeTransaction(db, other))
      : { transaction: null, written: new Set(), carried: new Set() };
  }
  return batchOutcome(await broadcastAndAwait(db, recorded));
}

/** What a reputation batch carried and, once confirmed, wrote (read from its receipt). */
async function batchOutcome(tx: ChainTransaction): Promise<RecordReputationsResult> {
  const ids = (refs: readonly Hex[]) =>
    new Set(refs.map(milestoneIdFromRef).filter((id): id is string => id !== null));
  const { args } = decodeFunctionData({ abi: reputationRegistryAbi, data: tx.data as Hex });
  const carried = ids(
    args?.[0] && typeof args[0] === "object"
      ? (args[0] as ReadonlyArray<{ milestoneRef: Hex }>).map((r) => r.milestoneRef)
      : [],
  );
  if (tx.status !== "confirmed" || !tx.hash)
    return { transaction: tx, written: new Set(), carried };
  let receipt: Awaited<ReturnType<ReturnType<typeof publicClient>["getTransactionReceipt"]>>;
  try {
    receipt = await publicClient().getTransactionReceipt({ hash: tx.hash as Hex });
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    throw err;
  }
  const written = parseEventLogs({
    abi: reputationRegistryAbi,
    logs: receipt.logs,
    eventName: "SettlementRecorded",
  }).map((e) => e.args.milestoneRef);
  return { transaction: tx, written: ids(written), carried };
}
