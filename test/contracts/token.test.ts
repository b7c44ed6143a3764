import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  hashDomain,
  keccak256,
  parseEventLogs,
  parseSignature,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil as anvilChain } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { type AnvilInstance, devAccountKey, startAnvil } from "@/lib/chain/anvil";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  makePublicClient,
  makeWalletClient,
} from "@/lib/chain/clients";
import { deployLocalContracts } from "@/lib/chain/deploy";

const USDC = 10n ** 6n;

let node: AnvilInstance;
let pub: ChainPublicClient;
let owner: ChainWalletClient; // dev 0: deployer and token owner
let alice: ChainWalletClient; // dev 1: signs authorizations
let bob: ChainWalletClient; // dev 2: payee
let relayer: ChainWalletClient; // dev 3: submits authorizations and pays gas
let usdc: Address;

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

const balanceOf = (who: Address) =>
  pub.readContract({ address: usdc, abi: mockUsdcAbi, functionName: "balanceOf", args: [who] });

async function now(): Promise<bigint> {
  return (await pub.getBlock()).timestamp;
}

interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

async function authorization(overrides: Partial<Authorization> = {}): Promise<Authorization> {
  const t = await now();
  return {
    from: alice.account.address,
    to: bob.account.address,
    value: 10n * USDC,
    validAfter: 0n,
    validBefore: t + 3600n,
    nonce: keccak256(toHex(crypto.getRandomValues(new Uint8Array(32)))),
    ...overrides,
  };
}

function sign(signer: ChainWalletClient, message: Authorization): Promise<Hex> {
  return signer.signTypedData({
    domain: { name: "USDC", version: "2", chainId: anvilChain.id, verifyingContract: usdc },
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
}

/** Submits with the (v, r, s) overload, as most EIP-3009 clients do. */
function submitVrs(sender: ChainWalletClient, a: Authorization, signature: Hex) {
  const { r, s, yParity } = parseSignature(signature);
  return sender.writeContract({
    address: usdc,
    abi: mockUsdcAbi,
    functionName: "transferWithAuthorization",
    args: [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, 27 + yParity, r, s],
  });
}

beforeAll(async () => {
  node = await startAnvil();
  const config = { chain: anvilChain, rpcUrl: node.rpcUrl };
  pub = makePublicClient(config);
  [owner, alice, bob, relayer] = [0, 1, 2, 3].map((i) =>
    makeWalletClient(config, devAccountKey(i)),
  ) as [ChainWalletClient, ChainWalletClient, ChainWalletClient, ChainWalletClient];
  ({ usdc } = await deployLocalContracts({
    rpcUrl: node.rpcUrl,
    deployerKey: devAccountKey(0),
    attestor: owner.account.address,
  }));
  const hash = await owner.writeContract({
    address: usdc,
    abi: mockUsdcAbi,
    functionName: "mint",
    args: [alice.account.address, 1_000n * USDC],
  });
  await pub.waitForTransactionReceipt({ hash });
});

afterAll(async () => {
  await node?.stop();
});

describe("MockUSDC", () => {
  it("looks like USDC: name, symbol, 6 decimals, EIP-712 domain and Circle's type hashes", async () => {
    const read = <F extends "name" | "symbol" | "decimals" | "version" | "DOMAIN_SEPARATOR">(
      f: F,
    ) => pub.readContract({ address: usdc, abi: mockUsdcAbi, functionName: f });
    expect(await read("name")).toBe("USDC");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("decimals")).toBe(6);
    expect(await read("version")).toBe("2");
    expect(await read("DOMAIN_SEPARATOR")).toBe(
      hashDomain({
        domain: {
          name: "USDC",
          version: "2",
          chainId: BigInt(anvilChain.id),
          verifyingContract: usdc,
        },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
    const typeHash = (
      f:
        | "TRANSFER_WITH_AUTHORIZATION_TYPEHASH"
        | "RECEIVE_WITH_AUTHORIZATION_TYPEHASH"
        | "CANCEL_AUTHORIZATION_TYPEHASH",
    ) => pub.readContract({ address: usdc, abi: mockUsdcAbi, functionName: f });
    // Values from Circle's FiatTokenV2 / EIP3009.sol.
    expect(await typeHash("TRANSFER_WITH_AUTHORIZATION_TYPEHASH")).toBe(
      "0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267",
    );
    expect(await typeHash("RECEIVE_WITH_AUTHORIZATION_TYPEHASH")).toBe(
      "0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8",
    );
    expect(await typeHash("CANCEL_AUTHORIZATION_TYPEHASH")).toBe(
      "0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429",
    );
  });

  it("lets only the owner mint", async () => {
    const stranger = bob.account.address;
    const before = await balanceOf(stranger);
    const reason = await revertReason(
      bob.writeContract({
        address: usdc,
        abi: mockUsdcAbi,
        functionName: "mint",
        args: [stranger, USDC],
      }),
    );
    expect(reason).toBe("OwnableUnauthorizedAccount");
    expect(await balanceOf(stranger)).toBe(before);
  });

  it("transfers", async () => {
    const carol = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await alice.writeContract({
      address: usdc,
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [carol, 5n * USDC],
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await balanceOf(carol)).toBe(5n * USDC);
  });

  it("executes an EIP-3009 authorization submitted by a relayer, who pays the gas", async () => {
    const a = await authorization({ value: 25n * USDC });
    const signature = await sign(alice, a);
    const [aliceUsdc, bobUsdc, aliceEth, relayerEth] = await Promise.all([
      balanceOf(a.from),
      balanceOf(a.to),
      pub.getBalance({ address: alice.account.address }),
      pub.getBalance({ address: relayer.account.address }),
    ]);

    const receipt = await pub.waitForTransactionReceipt({
      hash: await submitVrs(relayer, a, signature),
    });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(relayer.account.address.toLowerCase());

    expect(await balanceOf(a.from)).toBe(aliceUsdc - a.value);
    expect(await balanceOf(a.to)).toBe(bobUsdc + a.value);
    expect(await pub.getBalance({ address: alice.account.address })).toBe(aliceEth);
    expect(await pub.getBalance({ address: relayer.account.address })).toBeLessThan(relayerEth);
    expect(
      await pub.readContract({
        address: usdc,
        abi: mockUsdcAbi,
        functionName: "authorizationState",
        args: [a.from, a.nonce],
      }),
    ).toBe(true);
    const [used] = parseEventLogs({
      abi: mockUsdcAbi,
      logs: receipt.logs,
      eventName: "AuthorizationUsed",
    });
    expect(used?.args).toEqual({ authorizer: a.from, nonce: a.nonce });

    // The same authorization cannot be replayed.
    expect(await revertReason(submitVrs(relayer, a, signature))).toBe(
      "FiatTokenV2: authorization is used or canceled",
    );
  });

  it("accepts the bytes-signature overload", async () => {
    const a = await authorization({ value: 3n * USDC });
    const signature = await sign(alice, a);
    const before = await balanceOf(a.to);
    const hash = await relayer.writeContract({
      address: usdc,
      abi: mockUsdcAbi,
      functionName: "transferWithAuthorization",
      args: [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature],
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await balanceOf(a.to)).toBe(before + a.value);
  });

  it("rejects expired, not-yet-valid, wrongly signed and tampered authorizations", async () => {
    const t = await now();
    const expired = await authorization({ validBefore: t - 1n });
    expect(await revertReason(submitVrs(relayer, expired, await sign(alice, expired)))).toBe(
      "FiatTokenV2: authorization is expired",
    );

    const early = await authorization({ validAfter: t + 3600n, validBefore: t + 7200n });
    expect(await revertReason(submitVrs(relayer, early, await sign(alice, early)))).toBe(
      "FiatTokenV2: authorization is not yet valid",
    );

    const wrongSigner = await authorization();
    expect(await revertReason(submitVrs(relayer, wrongSigner, await sign(bob, wrongSigner)))).toBe(
      "FiatTokenV2: invalid signature",
    );

    const signed = await authorization();
    const signature = await sign(alice, signed);
    const tampered = { ...signed, value: signed.value * 100n };
    expect(await revertReason(submitVrs(relayer, tampered, signature))).toBe(
      "FiatTokenV2: invalid signature",
    );
    // Failed attempts do not consume the nonce.
    expect(
      await pub.readContract({
        address: usdc,
        abi: mockUsdcAbi,
        functionName: "authorizationState",
        args: [signed.from, signed.nonce],
      }),
    ).toBe(false);
  });

  it("cancels an unused authorization so it can no longer be executed", async () => {
    const a = await authorization();
    const signature = await sign(alice, a);
    const cancelSig = await alice.signTypedData({
      domain: { name: "USDC", version: "2", chainId: anvilChain.id, verifyingContract: usdc },
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: a.from, nonce: a.nonce },
    });
    const hash = await relayer.writeContract({
      address: usdc,
      abi: mockUsdcAbi,
      functionName: "cancelAuthorization",
      args: [a.from, a.nonce, cancelSig],
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await revertReason(submitVrs(relayer, a, signature))).toBe(
      "FiatTokenV2: authorization is used or canceled",
    );
  });
});
