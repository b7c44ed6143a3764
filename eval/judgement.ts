import type { EvalCase } from "./cases";

// Generated judgement cases: every required hashtag, mention and link is in the post, so no
// rule decides; a free-text criterion does. Labelled by construction: a caption that does
// what the criterion asks (said plainly, or in other words) is to approve; one about
// something else, or one that names the criterion's words without doing it ("no bottle in
// this one"), is to reject. Not deterministic: only judgement gets them right, which is what
// a model's calibrated confidence is measured on (eval/run.ts).

type Brief = {
  key: string;
  platform: "instagram" | "tiktok" | "x" | "youtube";
  title: string;
  milestone: string;
  author: string;
  url: (n: number) => string;
  tags: string;
  hashtags: string[];
  mentions: string[];
  links: string[];
  criterion: string;
  /** Does it, in the criterion's words. */
  plain: string[];
  /** Does it, in other words. */
  paraphrase: string[];
  /** About something else. */
  offBrief: string[];
  /** Names the criterion's words without doing it. */
  nearMiss: string[];
};

const BRIEFS: Brief[] = [
  {
    key: "ig",
    platform: "instagram",
    title: "Instagram Reel — Product Launch",
    milestone: "Launch Reel",
    author: "maya.creates",
    url: (n) => `https://www.instagram.com/reel/Jd${n.toString(36)}q/`,
    tags: "#MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
    hashtags: ["#MilestoneLaunch", "#ad"],
    mentions: ["@milestone.app"],
    links: ["https://milestone.example/launch"],
    criterion: "Shows the Milestone app on screen",
    plain: [
      "Opening the Milestone app on screen to show my payouts for this week.",
      "Here is the Milestone app on my phone screen, step by step.",
      "Screen recording of the Milestone app while I submit a post.",
    ],
    paraphrase: [
      "Watch me tap through my payouts dashboard on my phone, milestone by milestone.",
      "A walk-through of the payouts dashboard on my phone while I submit a post.",
      "My phone shows each deal's payout as I scroll through my dashboard.",
    ],
    offBrief: [
      "Sunset run along the beach, my favourite part of the week.",
      "Trying a new pasta recipe tonight, it turned out great.",
      "Packing for a weekend trip to the mountains with friends.",
    ],
    nearMiss: [
      "Forgot to film the Milestone app on screen, I will show it next time.",
      "No screen recording of the Milestone app today, just my coffee.",
      "Talking about apps in general, not showing the Milestone screen yet.",
    ],
  },
  {
    key: "yt",
    platform: "youtube",
    title: "YouTube Review — Water Bottle",
    milestone: "Review video",
    author: "ria.cooks",
    url: (n) => `https://www.youtube.com/watch?v=jdg${n.toString(36)}`,
    tags: "#sponsored https://shop.example.com/bottle",
    hashtags: ["#sponsored"],
    mentions: [],
    links: ["https://shop.example.com/bottle"],
    criterion: "Shows the bottle being filled with water",
    plain: [
      "I show the bottle being filled with water at the tap, then test the lid.",
      "Filling the bottle with water on camera to check the seal.",
      "The bottle filled with water, then shaken upside down: no leaks.",
    ],
    paraphrase: [
      "Topping it up at the kitchen sink, then shaking it to check for leaks.",
      "I run the tap and top it up to the brim before the drop test.",
      "Watch it go from empty to full at the sink in ten seconds.",
    ],
    offBrief: [
      "My morning routine: journaling, stretching and a long walk.",
      "Reviewing three budget headphones for the gym this month.",
      "A quick tour of my balcony garden after the rain.",
    ],
    nearMiss: [
      "The bottle stayed empty today: no water, I ran out of time to film it.",
      "Not filling the bottle with water in this one, just unboxing it.",
      "I talk about water and the bottle, but the filling test is next week.",
    ],
  },
];

/** Every generated judgement case, deterministic in content and order. */
export function judgementCases(): EvalCase[] {
  const cases: EvalCase[] = [];
  let n = 0;
  for (const b of BRIEFS) {
    const kinds: [string, string[], boolean, string][] = [
      ["plain", b.plain, true, "does what the criterion asks, in its words"],
      ["paraphrase", b.paraphrase, true, "does what the criterion asks, in other words"],
      ["off-brief", b.offBrief, false, "every tag present, content about something else"],
      ["near-miss", b.nearMiss, false, "names the criterion's words without doing it"],
    ];
    for (const [kind, captions, approve, why] of kinds)
      for (const [i, text] of captions.entries())
        for (const [v, caption] of [
          `${text} ${b.tags}`,
          `${b.tags}\n${text}`,
          `${text}\n\n${b.tags} (more in my bio)`,
        ].entries()) {
          const url = b.url(9000 + n++);
          cases.push({
            id: `judge-${b.key}-${kind}-${i}-${v}`,
            category: `judge-${kind}`,
            why,
            deterministic: false,
            attack: false,
            // Judged criteria, on deals without the disclosure rule (generate.ts tests that).
            deal: {
              title: b.title,
              milestone: b.milestone,
              platform: b.platform,
              disclosure: false,
            },
            requirements: {
              hashtags: b.hashtags,
              mentions: b.mentions,
              links: b.links,
              criteria: [b.criterion],
            },
            post: {
              status: "ok",
              platform: b.platform,
              url,
              author: b.author,
              caption,
              mediaType: "video",
              paidPartnership: false,
            },
            declaredHandle: b.author,
            claim: { url, text: caption, note: "" },
            expected: { approved: approve },
          });
        }
  }
  return cases;
}
