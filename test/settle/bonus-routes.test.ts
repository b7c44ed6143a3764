import { describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { makeUser } from "../helpers/users";
import { FIVE_USDC, newBonus, paidDeal } from "./bonus-steps";

// A bonus's escrow deal is reached by its creator only through the bonus routes
// (db/queries/deals.ts visibleTo). POST /api/deals/:id/accept looks deals up with
// findAcceptableDeal, whose "taken public offer" clause once let the creator accept it (200,
// the bonus deal's JSON) and told a stranger it was "already taken" (so it exists).
describe("a bonus's escrow deal through the accept route", () => {
  it("is 404 to the bonus's creator and to a stranger, as every other deal route is", {
    timeout: 60_000,
  }, async () => {
    const { brand, creator, dealId } = await paidDeal();
    const bonus = await newBonus(brand, dealId, FIVE_USDC, "Thanks");
    await fundDeal(brand, bonus.id);
    const view = await call(dealRoute.GET, { token: creator.token, params: { id: bonus.id } });
    const accepted = await call(acceptRoute.POST, {
      method: "POST",
      token: creator.token,
      params: { id: bonus.id },
      body: {},
    });
    const stranger = await makeUser("creator");
    const other = await call(acceptRoute.POST, {
      method: "POST",
      token: stranger.token,
      params: { id: bonus.id },
      body: {},
    });
    expect(view.status).toBe(404);
    expect(accepted.status).toBe(404);
    expect(other.status).toBe(404);
  });
});
