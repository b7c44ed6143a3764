import { eq } from "drizzle-orm";
import { type Address, encodeFunctionData, type Hex, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mockUsdcAbi } from "@/contracts/artifacts";
import type { Db, Tx } from "@/db/client";
import {
  type ChainTransaction,
  type RelayAuthorization,
  type Settlement,
  settlements,
} from "@/db/schema";
import { chainConfig, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { relayProvider } from "@/lib/chain/relay";
import { gelatoRelayer } from "@/lib/chain/relayer";
import { recordTransaction } from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";

// Sending a settlement's USDC. Either the treasury transfers it (`direct`), or the
// treasury signs an EIP-3009 authorization and a relayer submits it, paying the gas
// (`relay`). Whatever is about to be sent is recorded on the settlement row first.

const AUTHORIZATION_TTL_SECONDS = 60 * 60;

/** Signs an EIP-3009 TransferWithAuthorization from the treasury to the creator. */
export async function signTransferAuthorization(
  to: Address,
  value: bigint,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<RelayAuthorization> {
  const config = chainConfig();
  const account = privateKeyToAccount(requireTreasury(config));
  const nonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const message = {
    from: account.address,
    to,
    value,
    validAfter: 0n,
    validBefore: BigInt(nowSeconds + AUTHORIZATION_TTL_SECONDS),
    nonce,
  };
  const signature = await account.signTypedData({
    domain: {
      name: config.known.usdcDomain.name,
      version: config.known.usdcDomain.version,
      chainId: config.chainId,
      verifyingContract: requireUsdc(config),
    },
    types: {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "TransferWithAuthorization",
    message,
  });
  return {
    from: account.address,
    to,
    value: value.toString(),
    validAfter: "0",
    validBefore: message.validBefore.toString(),
    nonce,
    signature,
  };
}

/** The calldata a relayer submits: transferWithAuthorization(..., bytes signature). */
export function authorizationCalldata(auth: RelayAuthorization): Hex {
  return encodeFunctionData({
    abi: mockUsdcAbi,
    functionName: "transferWithAuthorization",
    args: [
      auth.from as Address,
      auth.to as Address,
      BigInt(auth.value),
      BigInt(auth.validAfter),
      BigInt(auth.validBefore),
      auth.nonce as Hex,
      auth.signature as Hex,
    ],
  });
}

const expiresSoon = (auth: RelayAuthorization) =>
  BigInt(auth.validBefore) < BigInt(Math.floor(Date.now() / 1000) + 120);

function linkTo(settlementId: string) {
  return async (tx: Tx, row: ChainTransaction) => {
    await tx
      .update(settlements)
      .set({
        chainTxId: row.id,
        txHash: row.hash,
        status: "submitted",
        error: null,
        updatedAt: new Date(),
      })
      .where(eq(settlements.id, settlementId));
  };
}

/**
 * Starts the payment of a settlement that has none under way (`pending`, or `failed`
 * after a revert that moved nothing). Returns the recorded chain transaction, or null
 * when an external relayer took it (its task id is stored instead).
 */
export async function submitPayment(db: Db, s: Settlement): Promise<ChainTransaction | null> {
  const config = chainConfig();
  const usdc = requireUsdc(config);
  if (s.via === "direct") {
    const data = encodeFunctionData({
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [s.recipient as Address, s.amountUnits],
    });
    return recordTransaction(
      db,
      requireTreasury(config),
      { to: usdc, data, purpose: `settlement:${s.id}` },
      linkTo(s.id),
    );
  }

  // Relay: reuse the stored authorization while it is valid (the token accepts its nonce
  // once, so resubmitting cannot pay twice); sign a new one only after it has lapsed.
  let auth = s.relayAuthorization;
  if (!auth || expiresSoon(auth)) {
    auth = await signTransferAuthorization(s.recipient as Address, s.amountUnits);
    await db
      .update(settlements)
      .set({ relayAuthorization: auth, updatedAt: new Date() })
      .where(eq(settlements.id, s.id));
  }
  const data = authorizationCalldata(auth);
  const provider = relayProvider(config);
  if (provider === "local") {
    if (!config.sponsorKey)
      throw new AppError("not_configured", "The local relayer has no sponsor key.");
    return recordTransaction(
      db,
      config.sponsorKey,
      { to: usdc, data, purpose: `relay:${s.id}` },
      linkTo(s.id),
    );
  }
  if (provider === "gelato") {
    const taskId = await gelatoRelayer().sponsoredCall({
      chainId: config.chainId,
      target: usdc,
      data,
    });
    await db
      .update(settlements)
      .set({ relayTaskId: taskId, status: "submitted", error: null, updatedAt: new Date() })
      .where(eq(settlements.id, s.id));
    return null;
  }
  throw new AppError("not_configured", "Relayed settlement is not configured on this deployment.");
}
