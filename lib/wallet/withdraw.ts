import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  isAddressEqual,
  parseAbi,
  parseSignature,
  parseUnits,
  zeroAddress,
} from "viem";
import type { Db } from "@/db/client";
import {
  findWithdrawal,
  insertWithdrawal,
  lockWithdrawingUser,
  releaseWithdrawalLease,
  takeWithdrawalLease,
  unsettledWithdrawalUnits,
  type WithdrawalView,
} from "@/db/queries/withdrawals";
import type { User } from "@/db/schema";
import { chainById } from "@/lib/chain/chains";
import { type ChainConfig, chainConfig, publicClient, requireUsdc } from "@/lib/chain/config";
import { explorerTxUrl } from "@/lib/chain/explorer";
import {
  broadcastAndAwait,
  chainUnavailable,
  estimateAhead,
  getChainTransaction,
  isTransportError,
  recordTransaction,
  WouldRevert,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import { receiveWithAuthorizationTypes } from "@/lib/escrow/onchain";
import { log } from "@/lib/log";
import { USDC_DECIMALS, unitsToDecimal } from "@/lib/money";
import type { WithdrawalBody, WithdrawalJson } from "@/lib/wallet/schemas";
import { noEmbeddedWallet, requireEmbeddedWalletSigner } from "@/lib/wallet/signer";

// Sending USDC out of a user's embedded wallet (POST /api/wallet/withdrawals), e.g. to an
// exchange deposit address. A payment path like settle's:
//  1. the embedded wallet signs a USDC TransferWithAuthorization (EIP-3009) of exactly this
//     amount to exactly this address, valid for an hour, with a fresh random nonce
//     (lib/wallet/signer.ts: the provider signs; no key here);
//  2. the service's relayer (the sponsor key) submits it through the one sender
//     (lib/chain/sender.ts), paying the gas: the user needs no ETH. The signed transaction is
//     recorded before it is broadcast, in the same database transaction as the withdrawal
//     row, so a crash or a dead node leaves a row that reconcile finishes with the same bytes
//     (the authorization's nonce makes a second transfer impossible on-chain anyway);
//  3. "never more than the balance": the amount plus every withdrawal the balance read may not
//     show yet must fit in the balance read at block B (unsettledWithdrawalUnits) — checked
//     under the user's withdrawal lease, before the relayer allocates a nonce (concurrent
//     sends of one user take turns; a refusal costs no nonce, so no no-op), and again in
//     that same transaction under the user's row lock, the arbiter should a lease run out.
// Only the caller's own embedded wallet: the signer derives it from the session's identity;
// no request field names the sender.

const transferWithAuthorizationAbi = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
]);

// EIP-3009's transfer authorization has the same fields as the receive one the escrow uses.
const transferWithAuthorizationTypes = {
  TransferWithAuthorization: receiveWithAuthorizationTypes.ReceiveWithAuthorization,
} as const;

/** How long the signed authorization stays valid (chain time). */
const AUTHORIZATION_TTL_SECONDS = 60n * 60n;

export const WITHDRAWAL_PURPOSE_PREFIX = "withdrawal:";

const badTo = (message: string) =>
  new AppError("invalid_request", message, { details: [{ path: ["to"], message }] });

function requireSponsor(config: ChainConfig): Hex {
  if (!config.sponsorKey)
    throw new AppError(
      "not_configured",
      "Sending is not available on this deployment: no relayer key pays the network fee (RELAY_SPONSOR_PRIVATE_KEY).",
    );
  return config.sponsorKey;
}

/** The recipient, refused when it cannot be meant: zero, the sender itself, our contracts. */
function checkRecipient(to: Address, from: Address, config: ChainConfig): void {
  if (isAddressEqual(to, zeroAddress)) throw badTo("The zero address cannot receive USDC.");
  if (isAddressEqual(to, from)) throw badTo("That is the wallet you are sending from.");
  const contracts: [Address | null, string][] = [
    [config.usdc, "the USDC token contract"],
    [config.escrow, "the escrow contract"],
    [config.registry, "the reputation registry contract"],
  ];
  for (const [contract, what] of contracts)
    if (contract && isAddressEqual(to, contract))
      throw badTo(`That is ${what}: USDC sent there would be lost.`);
}

export function withdrawalJson(w: WithdrawalView): WithdrawalJson {
  return {
    id: w.id,
    chainId: w.chainId,
    network: chainById(w.chainId)?.name ?? String(w.chainId),
    token: "USDC",
    from: getAddress(w.fromAddress),
    to: getAddress(w.toAddress),
    amount: unitsToDecimal(w.amountUnits),
    status: w.status,
    txHash: w.txHash,
    explorerUrl: explorerTxUrl(w.chainId, w.txHash),
    createdAt: w.createdAt.toISOString(),
  };
}

async function chainRead<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    throw err;
  }
}

/** How long a send may hold its user's withdrawal lease (a recording takes milliseconds). */
const LEASE_MS = 30_000;
/** How long a send waits for another send of the same user to be recorded. */
const LEASE_WAIT_MS = 2_000;

/** Takes the user's withdrawal lease, waiting (briefly) for another send to be recorded. */
async function withdrawalLease(db: Db, userId: string): Promise<Date> {
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const lease = await takeWithdrawalLease(db, userId, LEASE_MS);
    if (lease) return lease;
    if (Date.now() >= deadline)
      throw new AppError(
        "settlement_in_progress",
        "Another send from this wallet is being recorded right now; try again in a moment.",
      );
    await new Promise((r) => setTimeout(r, delay));
  }
}

const insufficient = (available: bigint) =>
  new AppError(
    "insufficient_funds",
    `The wallet holds ${unitsToDecimal(available, 2)} USDC that can be sent (after sends still on their way). Nothing was sent.`,
    { details: { available: unitsToDecimal(available) } },
  );

/**
 * Sends `amount` USDC from the caller's embedded wallet to `to`. Answers the withdrawal:
 * `confirmed` when the chain has it, `submitted`/`pending` when it is on its way (the node
 * was slow or went away after recording: reconcile finishes it). A transfer the node
 * refused or the chain reverted moved nothing: 502, and a retry may send anew.
 */
export async function withdraw(
  db: Db,
  user: Pick<User, "id" | "issuer" | "subject">,
  body: WithdrawalBody,
): Promise<WithdrawalJson> {
  const signer = requireEmbeddedWalletSigner();
  const config = chainConfig();
  const usdc = requireUsdc(config);
  const sponsorKey = requireSponsor(config);
  const from = await signer.address(user);
  if (!from) throw noEmbeddedWallet();
  const to = getAddress(body.to.toLowerCase());
  checkRecipient(to, from, config);
  const amount = parseUnits(body.amount, USDC_DECIMALS);
  if (amount <= 0n)
    throw new AppError("invalid_request", "The amount must be more than 0.", {
      details: [{ path: ["amount"], message: "must be more than 0" }],
    });

  // The balance at one block, and that block's time for the authorization's expiry.
  const client = publicClient();
  const block = await chainRead(() => client.getBlock({ blockTag: "latest" }));
  const balance = await chainRead(() =>
    client.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [from],
      blockNumber: block.number,
    }),
  );
  // Early, unlocked, with the sends still on their way, before anything is signed or a nonce
  // allocated (a refusal after the allocation leaves the nonce to a no-op); re-checked below
  // under the user's lock, where only a concurrent send can still refuse it.
  const available = (unsettled: bigint) => (balance > unsettled ? balance - unsettled : 0n);
  const early = available(
    await unsettledWithdrawalUnits(db, { chainId: config.chainId, from, block: block.number }),
  );
  if (amount > early) throw insufficient(early);

  const domain = config.known.usdcDomain;
  const nonce = `0x${randomBytes(32).toString("hex")}` as Hex;
  const validBefore = block.timestamp + AUTHORIZATION_TTL_SECONDS;
  const signature = await signer.signTypedData(user, {
    domain: { ...domain, chainId: config.chainId, verifyingContract: usdc },
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: { from, to, value: amount, validAfter: 0n, validBefore, nonce },
  });
  const { r, s, v, yParity } = parseSignature(signature);
  const data = encodeFunctionData({
    abi: transferWithAuthorizationAbi,
    functionName: "transferWithAuthorization",
    args: [from, to, amount, 0n, validBefore, nonce, Number(v ?? BigInt(yParity + 27)), r, s],
  });

  const id = randomUUID();
  // The transfer's gas before the lease (the network wait), then this user's sends are
  // checked one after another, each before its nonce: a send that no longer fits beside
  // another just recorded is refused without allocating one (which a no-op would then fill).
  const estimate = estimateAhead(sponsorKey, { to: usdc, data });
  await estimate.gas;
  const lease = await withdrawalLease(db, user.id);
  const recorded = await (async () => {
    const checked = available(
      await unsettledWithdrawalUnits(db, { chainId: config.chainId, from, block: block.number }),
    );
    if (amount > checked) throw insufficient(checked);
    return recordTransaction(
      db,
      sponsorKey,
      { to: usdc, data, purpose: `${WITHDRAWAL_PURPOSE_PREFIX}${id}`, estimate },
      async (tx, row) => {
        if (!(await lockWithdrawingUser(tx, user.id)))
          throw new AppError("invalid_token", "The session's user no longer exists.");
        const locked = available(
          await unsettledWithdrawalUnits(tx, {
            chainId: config.chainId,
            from,
            block: block.number,
          }),
        );
        if (amount > locked) throw insufficient(locked);
        await insertWithdrawal(tx, {
          id,
          userId: user.id,
          chainId: config.chainId,
          fromAddress: from,
          toAddress: to,
          amountUnits: amount,
          authorizationNonce: nonce,
          validBefore,
          chainTxId: row.id,
          txHash: row.hash as string,
        });
      },
    ).catch(async (err) => {
      // The node says the transfer would fail (gas estimate): another send was mined since the
      // balance was read. Short of money now is a 409, like the locked check's.
      if (err instanceof WouldRevert) {
        const now = await chainRead(() =>
          client.readContract({
            address: usdc,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [from],
          }),
        );
        if (amount > now) throw insufficient(now);
      }
      throw err;
    });
  })().finally(() => releaseWithdrawalLease(db, user.id, lease).catch(() => {}));

  let status = recorded.status;
  try {
    status = (await broadcastAndAwait(db, recorded)).status;
  } catch (err) {
    // Refused by the node: nothing was sent (the sender marked it failed). Anything else
    // (the node went away) leaves it recorded and on its way: reconcile finishes it.
    const current = await getChainTransaction(db, recorded.id);
    if (!current || current.status === "failed") throw err;
    log.warn("withdrawal recorded, its send not finished; reconcile takes over", { id, err });
    status = current.status;
  }
  if (status === "failed")
    throw new AppError(
      "chain_unavailable",
      "The network refused the transfer. Nothing was sent; try again.",
    );
  const view = await findWithdrawal(db, { userId: user.id, id });
  if (!view) throw new Error(`withdrawal ${id} vanished`);
  return withdrawalJson({ ...view, status });
}
