import * as dealsRoute from "@/app/api/deals/route";
import { launchRules } from "../verify/fixtures";
import { call } from "./http";
import type { TestUser } from "./users";

export type NewDeal = { id: string; milestones: { id: string }[]; status: string };

/**
 * A new unfunded Instagram deal of `brand`'s through the real handler: one milestone per
 * amount (whole USDC), each with the launch requirements; `deadline` ISO, else the default.
 */
export async function createDealFor(
  brand: TestUser,
  amounts: number[],
  opts: { title?: string; deadline?: string } = {},
): Promise<NewDeal> {
  const res = await call(dealsRoute.POST, {
    token: brand.token,
    body: {
      title: opts.title ?? "Test campaign",
      platform: "instagram",
      ...(opts.deadline ? { deadline: opts.deadline } : {}),
      milestones: amounts.map((amount, i) => ({
        title: `Post ${i + 1}`,
        amount,
        requirements: launchRules,
      })),
    },
  });
  if (res.status !== 201) throw new Error(`create deal: ${JSON.stringify(res.body)}`);
  return res.body.deal as NewDeal;
}
