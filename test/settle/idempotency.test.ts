import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { setChainEnv } from "../helpers/chain-env";
import { type CallResult, call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";
import { submittedMilestone } from "../verify/fixtures";
import { parties, transfersTo } from "./fixtures";

// Many identical POST /api/settle requests with one Idempotency-Key at once (a client that
// retries on a timeout while its first request is still running). lib/idempotency.ts: the
// first claims the key and runs; any other while it runs gets 409 settlement_in_progress;
// after it, each gets the first response again (Idempotent-Replayed: true). The payment
// is held at the node (an RPC proxy holds the broadcast) until every other request has
// answered, so they really overlap it, whatever the machine's speed.

let proxy: RpcProxy;
let restore: () => void;
beforeAll(async () => {
  proxy = await startRpcProxy(process.env.RPC_URL as string);
  restore = setChainEnv({ RPC_URL: proxy.url });
});
afterAll(async () => {
  restore?.();
  await proxy?.close();
});

const N = 8;

describe("one Idempotency-Key, many requests at once", () => {
  it("pays once; every answer is the first one or a 409 settlement_in_progress", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const send = () =>
      call(settleRoute.POST, {
        token: brand.token,
        body: { milestoneId },
        headers: { "idempotency-key": `pay-${milestoneId}` },
      });

    const broadcast = proxy.hold("eth_sendRawTransaction");
    let answered = 0;
    let allOthersAnswered!: () => void;
    const othersDone = new Promise<void>((r) => {
      allOthersAnswered = r;
    });
    const requests = Array.from({ length: N }, () =>
      send().then((res) => {
        if (++answered === N - 1) allOthersAnswered();
        return res;
      }),
    );

    // The request that claimed the key is at the node with the payment; the others answer
    // meanwhile, all with 409 (the first has no answer yet to replay).
    await broadcast.arrived;
    await othersDone;
    expect(answered).toBe(N - 1);
    broadcast.release();
    const results = await Promise.all(requests);

    const first = results.find((r) => r.status === 200);
    expect(first, JSON.stringify(results.map((r) => r.body))).toBeDefined();
    const { status, body } = first as CallResult;
    expect(status).toBe(200);
    expect(body.outcome).toBe("paid");
    expect(body.settlement.status).toBe("confirmed");
    expect(first?.headers.get("idempotent-replayed")).toBeNull();
    const others = results.filter((r) => r !== first);
    expect(others).toHaveLength(N - 1);
    for (const r of others) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe("settlement_in_progress");
    }
    expect(proxy.counts.get("eth_sendRawTransaction")).toBeGreaterThanOrEqual(1);
    const transfers = await transfersTo(wallet);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.args.value.toString()).toBe(
      String(Math.round(Number(body.settlement.amount) * 1e6)),
    );

    // Once it has answered, the same requests all get that answer back, and pay nothing.
    const replays = await Promise.all(Array.from({ length: N }, send));
    for (const r of replays) {
      expect(r.status).toBe(200);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.body).toEqual(body);
    }
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
