import { z } from "zod";
import type { Db } from "@/db/client";
import {
  insertStarterDeals,
  insertStarterMilestones,
  listStarterDeals,
} from "@/db/queries/starter-deals";
import type { Requirements } from "@/db/schema";
import { type Caller, renderDeals, requireRole } from "@/lib/deals/deals";
import type { DealJson } from "@/lib/deals/serialize";
import { dealSchema } from "@/lib/deals/serialize";
import { sandboxSocialEnabled } from "@/lib/env";
import { recordEvent } from "@/lib/events/events";
import { usdcToUnits } from "@/lib/money";

// The three starter deals a demo brand gets. Their requirements are concrete so the
// verifier has something real to check: hashtags and mentions are matched exactly,
// links must appear, criteria are judged. Some milestones are rules only (the teaser, the
// shoutout): their verdicts are certain and settle on their own. The others have
// judgement-only criteria: without an AI model to judge them, the brand decides.

type StarterMilestone = { title: string; amount: number; requirements: Requirements };
type StarterDeal = {
  key: string;
  title: string;
  description: string;
  platform: string;
  milestones: StarterMilestone[];
};

export const starterDeals: StarterDeal[] = [
  {
    key: "instagram-reel",
    title: "Instagram Reel — Product Launch",
    description:
      "Announce the launch of the Milestone app to your audience: a teaser story first, then the launch Reel.",
    platform: "instagram",
    milestones: [
      {
        title: "Teaser story",
        amount: 80,
        requirements: {
          hashtags: ["#MilestoneLaunch", "#ad"],
          mentions: ["@milestone.app"],
          links: ["https://milestone.example/launch"],
          criteria: [],
        },
      },
      {
        title: "Launch Reel",
        amount: 120,
        requirements: {
          hashtags: ["#MilestoneLaunch", "#ad"],
          mentions: ["@milestone.app"],
          links: ["https://milestone.example/launch"],
          criteria: [
            "Reel is between 15 and 60 seconds long",
            "Ends with a clear call to action to visit the link",
          ],
        },
      },
    ],
  },
  {
    key: "tiktok-clip",
    title: "TikTok Clip — Brand Shoutout",
    description: "A short, honest shoutout: why you use Milestone to get paid for your work.",
    platform: "tiktok",
    milestones: [
      {
        title: "Shoutout clip",
        amount: 100,
        requirements: {
          hashtags: ["#MilestonePartner", "#ad"],
          mentions: ["@milestone.app"],
          links: [],
          criteria: [],
        },
      },
    ],
  },
  {
    key: "x-thread",
    title: "X Thread — Feature Highlight",
    description: "Explain AI-verified milestone payouts to your followers in a short thread.",
    platform: "x",
    milestones: [
      {
        title: "Feature thread",
        amount: 100,
        requirements: {
          hashtags: ["#BuildInPublic"],
          mentions: ["@milestone_app"],
          links: ["https://milestone.example/features"],
          criteria: [
            "Thread has at least 4 posts",
            "Explains in plain words how milestones are verified and paid",
          ],
        },
      },
    ],
  },
];

// In the embedded setup there is no real platform to post on: creators publish on the
// built-in sandbox (/social) and submit that post's URL; the verifier reads it from there.
const SANDBOX_HINT =
  "No account on the platform here? Publish your post on the sandbox (/social) and submit its URL: the verifier reads the published caption.";

const units = (amount: number) => {
  const u = usdcToUnits(amount);
  if (u === null) throw new Error(`bad starter amount ${amount}`);
  return u;
};

/**
 * Seeds the starter deals for a brand, idempotently. The unique (brand, starter_key)
 * index decides: concurrent calls insert each deal once; ON CONFLICT DO NOTHING makes
 * the losers skip it, and only the rows actually inserted get milestones.
 */
export async function ensureStarterDeals(
  db: Db,
  caller: Caller,
): Promise<{ created: number; deals: DealJson[] }> {
  requireRole(caller, "organization");
  const created = await db.transaction(async (tx) => {
    const inserted = await insertStarterDeals(
      tx,
      starterDeals.map((s) => ({
        brandId: caller.id,
        starterKey: s.key,
        title: s.title,
        description: sandboxSocialEnabled() ? `${s.description} ${SANDBOX_HINT}` : s.description,
        platform: s.platform,
        budgetUnits: s.milestones.reduce((sum, m) => sum + units(m.amount), 0n),
      })),
    );
    for (const { id } of inserted)
      await recordEvent(tx, { dealId: id, type: "created", actorId: caller.id });
    const rows = inserted.flatMap(({ id, starterKey }) => {
      const spec = starterDeals.find((s) => s.key === starterKey);
      return (spec?.milestones ?? []).map((m, position) => ({
        dealId: id,
        position,
        title: m.title,
        amountUnits: units(m.amount),
        requirements: m.requirements,
      }));
    });
    if (rows.length) await insertStarterMilestones(tx, rows);
    return inserted.length;
  });
  const list = await listStarterDeals(
    db,
    caller.id,
    starterDeals.map((s) => s.key),
  );
  const order = (k: string | null) => starterDeals.findIndex((s) => s.key === k);
  list.sort((a, b) => order(a.starterKey) - order(b.starterKey));
  return { created, deals: await renderDeals(db, list) };
}

export const starterDealsResponse = z.object({
  created: z.number().int().nonnegative().describe("0: they existed already (200)"),
  deals: z.array(dealSchema),
});
