// A second app process for test/chain/sender.test.ts: sends N USDC transfers from the
// treasury through the sender, concurrently, against the same database and chain (env is
// inherited from the test). Prints "ready", waits for "go" on stdin, then prints one JSON
// line with the rows it recorded.
//   tsx test/chain/send-worker.ts <count> <recipient>
import { createInterface } from "node:readline";
import { type Address, encodeFunctionData } from "viem";
import { mockUsdcAbi } from "@/contracts/artifacts";
import { chainConfig, requireTreasury, requireUsdc } from "@/lib/chain/config";
import { sendTransaction } from "@/lib/chain/sender";
import { closeDb, getDb } from "@/lib/db";

const count = Number(process.argv[2]);
const to = process.argv[3] as Address;
const db = await getDb();
const config = chainConfig();
const key = requireTreasury(config);
const usdc = requireUsdc(config);

const lines = createInterface({ input: process.stdin });
console.log("ready");
for await (const line of lines) if (line.trim() === "go") break;

const rows = await Promise.all(
  Array.from({ length: count }, () =>
    sendTransaction(db, key, {
      to: usdc,
      data: encodeFunctionData({ abi: mockUsdcAbi, functionName: "transfer", args: [to, 1n] }),
      purpose: "test:worker-transfer",
    }),
  ),
);
console.log(JSON.stringify(rows.map((r) => ({ nonce: r.nonce, status: r.status, hash: r.hash }))));
lines.close();
await closeDb();
process.exit(0);
