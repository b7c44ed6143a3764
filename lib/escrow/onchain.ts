import {
  type Address,
  concat,
  encodeAbiParameters,
  getAddress,
  type Hex,
  isHex,
  keccak256,
  type TypedDataDefinition,
  toHex,
} from "viem";
import { chainById } from "@/lib/chain/chains";

// Pure helpers for contracts/MilestoneEscrow.sol: deal refs and keys, the funding nonce and the typed data
// the brand (EIP-3009 funding) and the evaluator (EIP-712 release) sign. No database, no env:
// callers pass the chain id and addresses they resolved.

/** Per-milestone state on-chain (the contract's `MilestoneState` enum). */
export const MilestoneState = { Locked: 0, Released: 1, Refunded: 2 } as const;
export type MilestoneState = (typeof MilestoneState)[keyof typeof MilestoneState];

/** After `deadline + GRACE_PERIOD_SECONDS` a milestone can only be refunded to the brand. */
export const GRACE_PERIOD_SECONDS = 7n * 24n * 60n * 60n;
/** The most milestones one deal may have on-chain. */
export const MAX_MILESTONES = 50;
/** The escrow's EIP-712 domain name and version. */
export const ESCROW_EIP712 = { name: "MilestoneEscrow", version: "1" } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REF = /^0x0{32}[0-9a-f]{32}$/i;

/**
 * A deal's UUID as the escrow's bytes32 deal ref (what `fund` and `fundWithAuthorization`
 * take): its 16 bytes, left-padded with zeros. The escrow stores the deal under
 * dealKey(funder, ref), never under the ref itself.
 */
export function dealRef(dealId: string): Hex {
  if (!UUID.test(dealId)) throw new Error(`not a UUID: ${dealId}`);
  return `0x${"0".repeat(32)}${dealId.replaceAll("-", "").toLowerCase()}`;
}

/** The inverse of dealRef: the lowercase, hyphenated UUID of a bytes32 deal ref. */
export function dealIdFromRef(ref: Hex): string {
  if (!REF.test(ref)) throw new Error(`not a deal ref (16 zero bytes, then a UUID): ${ref}`);
  const h = ref.slice(34).toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The escrow's key of deal `dealId` funded by `funder`: the contract's
 * `dealKey(funder, dealRef) = keccak256(abi.encode(funder, dealRef))`. A funding by anyone
 * else lands under another key, so only the deal at the brand's own key is its funding.
 */
export function dealKey(funder: Address, dealId: string): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "bytes32" }],
      [getAddress(funder), dealRef(dealId)],
    ),
  );
}

/** The sum of the milestone amounts: what funding a deal moves into the escrow. */
export function totalOf(amounts: readonly bigint[]): bigint {
  return amounts.reduce((sum, a) => sum + a, 0n);
}

export interface FundingTerms {
  chainId: number;
  escrow: Address;
  /** The deal's ref (dealRef): the key is derived from it and `brand`. */
  dealRef: Hex;
  /** The funder: the signer of the authorization, whose key the deal gets. */
  brand: Address;
  evaluator: Address;
  /** Unix seconds. */
  deadline: bigint;
  /** Milestone amounts in token base units, in order. */
  amounts: readonly bigint[];
}

/**
 * The EIP-3009 nonce the brand signs for fundWithAuthorization; equals the contract's
 * `fundingNonce(dealRef, brand, evaluator, deadline, amounts)` on `chainId` at `escrow`.
 */
export function fundingNonce(t: FundingTerms): Hex {
  // abi.encodePacked(uint256[]) is the elements as 32-byte words, without a length.
  const amountsHash = keccak256(
    t.amounts.length ? concat(t.amounts.map((a) => toHex(a, { size: 32 }))) : "0x",
  );
  return keccak256(
    encodeAbiParameters(
      [
        { type: "uint256" },
        { type: "address" },
        { type: "bytes32" },
        { type: "address" },
        { type: "address" },
        { type: "uint64" },
        { type: "bytes32" },
      ],
      [BigInt(t.chainId), t.escrow, t.dealRef, t.brand, t.evaluator, t.deadline, amountsHash],
    ),
  );
}

export const receiveWithAuthorizationTypes = {
  ReceiveWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export type ReceiveAuthorizationTypedData = TypedDataDefinition<
  typeof receiveWithAuthorizationTypes,
  "ReceiveWithAuthorization"
> & {
  message: {
    from: Address;
    to: Address;
    value: bigint;
    validAfter: bigint;
    validBefore: bigint;
    nonce: Hex;
  };
};

/**
 * What the brand signs (EIP-712, the token's domain) so that anyone can fund the deal with
 * these terms through `fundWithAuthorization`: a ReceiveWithAuthorization from the brand to the
 * escrow of the total, with the funding nonce. `usdcDomain` defaults to the known chain's.
 */
export function receiveAuthorizationTypedData(
  p: FundingTerms & {
    usdc: Address;
    validAfter: bigint;
    validBefore: bigint;
    usdcDomain?: { name: string; version: string };
  },
): ReceiveAuthorizationTypedData {
  const domain = p.usdcDomain ?? chainById(p.chainId)?.usdcDomain;
  if (!domain) throw new Error(`no USDC EIP-712 domain known for chain ${p.chainId}`);
  return {
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: p.chainId,
      verifyingContract: getAddress(p.usdc),
    },
    types: receiveWithAuthorizationTypes,
    primaryType: "ReceiveWithAuthorization",
    message: {
      from: getAddress(p.brand),
      to: getAddress(p.escrow),
      value: totalOf(p.amounts),
      validAfter: p.validAfter,
      validBefore: p.validBefore,
      nonce: fundingNonce(p),
    },
  };
}

export const releaseTypes = {
  Release: [
    { name: "dealKey", type: "bytes32" },
    { name: "index", type: "uint256" },
    { name: "payout", type: "uint256" },
    { name: "verdictHash", type: "bytes32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export type ReleaseTypedData = TypedDataDefinition<typeof releaseTypes, "Release"> & {
  message: { dealKey: Hex; index: bigint; payout: bigint; verdictHash: Hex; deadline: bigint };
};

/**
 * What the evaluator signs (EIP-712, the escrow's domain) so that anyone can submit
 * `releaseWithSig(dealKey, index, payout, verdictHash, deadline, signature)`; `deadline` is
 * the signature's expiry (unix seconds), not the deal's.
 */
export function releaseTypedData(p: {
  chainId: number;
  escrow: Address;
  dealKey: Hex;
  index: number | bigint;
  payout: bigint;
  verdictHash: Hex;
  deadline: bigint;
}): ReleaseTypedData {
  if (!isHex(p.verdictHash) || p.verdictHash.length !== 66)
    throw new Error(`verdictHash must be 32 bytes: ${p.verdictHash}`);
  return {
    domain: { ...ESCROW_EIP712, chainId: p.chainId, verifyingContract: getAddress(p.escrow) },
    types: releaseTypes,
    primaryType: "Release",
    message: {
      dealKey: p.dealKey,
      index: BigInt(p.index),
      payout: p.payout,
      verdictHash: p.verdictHash,
      deadline: p.deadline,
    },
  };
}
