// The TypeScript (viem) examples /docs shows for funding a deal (components/docs/funding-docs.tsx).
// Plain strings so the page prints them as they are; test/docs/funding-snippet.test.ts runs
// `gaslessModule` against the real handlers, database and chain, so they cannot drift from
// what the server verifies.

/** Gasless funding: sign USDC's ReceiveWithAuthorization, Milestone's relayer submits it. */
export const gaslessModule = `// fund-gasless.ts: fund a deal with a signature. The brand's wallet signs; Milestone's
// relayer submits the escrow call and pays the network fee. Needs viem (npm i viem), Node 20+.
import { concat, encodeAbiParameters, type Hex, keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export async function fundGasless(opts: {
  baseUrl: string; // e.g. https://milestone.example
  apiKey: string; // mk_… with the read and settle scopes
  dealId: string;
  privateKey: Hex; // the wallet that pays: the escrow keys the deal by it
}) {
  const account = privateKeyToAccount(opts.privateKey);
  const api = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(\`\${opts.baseUrl}\${path}\`, {
      ...init,
      headers: { authorization: \`Bearer \${opts.apiKey}\`, "content-type": "application/json" },
    });
    const body = await res.json();
    if (!res.ok) throw new Error(\`\${res.status} \${body.error?.code}: \${body.error?.message}\`);
    return body;
  };

  // 1. The chain, the token and its EIP-712 domain (public, no key needed).
  const chain = await api("/api/chain");
  // 2. The deal's exact terms, and the nonce for this wallet.
  const { funding } = await api(\`/api/deals/\${opts.dealId}/funding?brand=\${account.address}\`);
  const amounts: bigint[] = funding.amounts.map(BigInt);
  const total = amounts.reduce((sum, a) => sum + a, 0n);

  // 3. The nonce binds the signature to these terms; derive it yourself before signing.
  const nonce = keccak256(
    encodeAbiParameters(
      [
        { type: "uint256" }, { type: "address" }, { type: "bytes32" }, { type: "address" },
        { type: "address" }, { type: "uint64" }, { type: "bytes32" },
      ],
      [
        BigInt(chain.chainId), chain.escrow, funding.dealRef, account.address,
        funding.evaluator, BigInt(funding.deadline),
        keccak256(concat(amounts.map((a) => toHex(a, { size: 32 })))),
      ],
    ),
  );
  if (nonce !== funding.authorizationNonce) throw new Error("the terms do not match the nonce");

  // 4. Sign USDC's ReceiveWithAuthorization: the total, from this wallet to the escrow.
  const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600); // valid for an hour
  const signature = await account.signTypedData({
    domain: { ...chain.usdcDomain, chainId: chain.chainId, verifyingContract: chain.usdc },
    types: {
      ReceiveWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "ReceiveWithAuthorization",
    message: {
      from: account.address, to: chain.escrow, value: total,
      validAfter: 0n, validBefore, nonce,
    },
  });

  // 5. Hand it over: the relayer calls fundWithAuthorization; the deal opens once mined.
  const { deal } = await api(\`/api/deals/\${opts.dealId}/funding/authorization\`, {
    method: "POST",
    body: JSON.stringify({
      brand: account.address, validAfter: 0, validBefore: Number(validBefore), signature,
    }),
  });
  return deal; // deal.status === "open", deal.escrow.funded === true
}
`;

/** How to run the module above (shown under it; not part of what the test runs). */
export const gaslessRun = `// Run: MILESTONE_URL=https://… MILESTONE_API_KEY=mk_… BRAND_PRIVATE_KEY=0x… \\
//      npx tsx fund-gasless.ts <dealId>
const deal = await fundGasless({
  baseUrl: process.env.MILESTONE_URL as string,
  apiKey: process.env.MILESTONE_API_KEY as string,
  dealId: process.argv[2] as string,
  privateKey: process.env.BRAND_PRIVATE_KEY as Hex,
});
console.log(deal.status, deal.escrow.fundingTxHash);
`;

/** Approve + fund from a wallet that pays its own network fee. */
export const approveAndFund = `// fund-direct.ts: approve + fund from a wallet that pays its own network fee.
import { createPublicClient, createWalletClient, erc20Abi, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const chain = await api("/api/chain"); // api(): the helper of the gasless example
const account = privateKeyToAccount(process.env.BRAND_PRIVATE_KEY as \`0x\${string}\`);
const { funding } = await api(\`/api/deals/\${dealId}/funding?brand=\${account.address}\`);
const client = createPublicClient({ transport: http(chain.rpcUrl) });
const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });

// 1. Let the escrow take the deal's total from this wallet.
const approval = await wallet.writeContract({
  chain: null, address: chain.usdc, abi: erc20Abi, functionName: "approve",
  args: [chain.escrow, BigInt(funding.totalUnits)],
});
await client.waitForTransactionReceipt({ hash: approval, confirmations: chain.confirmations });

// 2. Fund. The escrow stores the deal under keccak256(abi.encode(this wallet, dealRef)):
//    nobody else can fund, cancel or squat this wallet's deal.
const hash = await wallet.writeContract({
  chain: null, address: chain.escrow,
  abi: parseAbi([
    "function fund(bytes32 dealRef, address evaluator, uint64 deadline, uint256[] amounts)",
  ]),
  functionName: "fund",
  args: [funding.dealRef, funding.evaluator, BigInt(funding.deadline), funding.amounts.map(BigInt)],
});
await client.waitForTransactionReceipt({ hash, confirmations: chain.confirmations });

// 3. Tell Milestone which wallet funded it (the hash is only a hint for the explorer link).
await api(\`/api/deals/\${dealId}/funding\`, {
  method: "POST",
  body: JSON.stringify({ brand: account.address, txHash: hash }),
});
`;
