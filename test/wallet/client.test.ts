import { ApiError, createClient } from "@milestone/client";
import { parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import type { ApiKeyScope } from "@/db/schema";
import { withdrawalResponse } from "@/lib/wallet/schemas";
import { inProcessFetch } from "../api/in-process-fetch";
import { call } from "../helpers/http";
import { newAddress } from "../helpers/treasury";
import { embeddedCreator, usdcBalance, usdcTransfersTo } from "./helpers";

// An integrator's path out of the embedded wallet: the typed client with an API key. Sending
// moves money, so it needs the settle scope; a retry with the same idempotency key sends once.

async function apiKeyOf(token: string, scopes: ApiKeyScope[]) {
  const res = await call(keysRoute.POST, {
    path: "/api/keys",
    token,
    body: { name: "cash-out", scopes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.key as string;
}

describe("the typed client's withdraw and getWallet", () => {
  it("sends once per idempotency key with a settle key; a read key is refused", async () => {
    const creator = await embeddedCreator(parseUnits("9", 6));
    const to = newAddress();
    const reader = createClient({
      baseUrl: "http://localhost",
      apiKey: await apiKeyOf(creator.token, ["read"]),
      fetch: inProcessFetch,
    });
    const refused = await reader.withdraw({ to, amount: "1" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
    expect((refused as ApiError).code).toBe("insufficient_scope");
    expect((await reader.getWallet()).wallets[0]?.balance).toBe("9.000000");

    const api = createClient({
      baseUrl: "http://localhost",
      apiKey: await apiKeyOf(creator.token, ["read", "settle"]),
      fetch: inProcessFetch,
    });
    const first = await api.withdraw({ to, amount: "4" }, "client-once");
    withdrawalResponse.parse(first);
    const again = await api.withdraw({ to, amount: "4" }, "client-once");
    expect(again).toEqual(first);
    expect(await usdcTransfersTo(to)).toHaveLength(1);
    expect(await usdcBalance(to)).toBe(parseUnits("4", 6));
    const wallet = await api.getWallet();
    expect(wallet.wallets[0]?.balance).toBe("5.000000");
    expect(wallet.withdrawals.map((w) => w.id)).toEqual([first.withdrawal.id]);
  });
});
