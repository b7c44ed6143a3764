import { describe, expect, it } from "vitest";
import {
  captionSimilarity,
  checkDraftCaption,
  editDistance,
  matchApprovedDraft,
  normaliseCaption,
  wordDiff,
} from "@/lib/verify/draft-match";

// The draft checks as pure functions: the rule checks on a draft's caption, and the live post
// held to the approved draft (normalised edit distance, differences in words).

const draft = {
  revision: 2,
  caption:
    "Launch day! The Milestone app pays creators per milestone. #MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
};

describe("checkDraftCaption", () => {
  it("names what the caption lacks, with the pre-check's words", () => {
    const requirements = {
      hashtags: ["#launch", "#ad"],
      mentions: ["@brand"],
      links: ["https://brand.example/x"],
      criteria: ["shows the bottle"],
    };
    const check = checkDraftCaption(requirements, "New bottle! #ad #launchday brand.example/x");
    expect(check).toMatchObject({
      ready: false,
      missing: ["hashtag #launch", "mention @brand"],
      criteria: ["shows the bottle"],
    });
    expect(
      checkDraftCaption(requirements, "#launch #ad @brand https://brand.example/x").ready,
    ).toBe(true);
  });
});

describe("similarity", () => {
  it("is an edit distance over code points", () => {
    expect(editDistance([..."kitten"], [..."sitting"])).toBe(3);
    expect(editDistance([], [..."abc"])).toBe(3);
    expect(editDistance([..."🎉a"], [..."a"])).toBe(1);
  });

  it("ignores what a reader does not see: case, spacing, NFKC forms, invisible characters", () => {
    expect(normaliseCaption("  Launch\u200b  DAY\n\n#ＡＤ ")).toBe("launch day #ad");
    expect(captionSimilarity(draft.caption, `  ${draft.caption.toUpperCase()}\n`)).toEqual({
      similarity: 1,
      exact: true,
    });
  });

  it("a fixed typo or an added emoji passes 0.9; a rewritten sentence does not", () => {
    const typo = draft.caption.replace("creators", "creaters");
    const emoji = `${draft.caption} 🚀`;
    expect(matchApprovedDraft(draft, typo, 0.9)).toMatchObject({ matches: true, differences: [] });
    expect(matchApprovedDraft(draft, emoji, 0.9).matches).toBe(true);
    const rewritten = draft.caption.replace(
      "The Milestone app pays creators per milestone.",
      "Half price today only with code SAVE50.",
    );
    const m = matchApprovedDraft(draft, rewritten, 0.9);
    expect(m.matches).toBe(false);
    expect(m.similarity).toBeLessThan(0.9);
    expect(m.differences).toEqual([
      `caption differs from the approved draft (revision 2): ${Math.floor(m.similarity * 100)} % the same, at least 90 % needed`,
      'approved draft text not in the post: "the milestone app pays creators per milestone."',
      'post text not in the approved draft: "half price today only with code save50."',
    ]);
  });

  it("a dropped hashtag or line is named; a configurable threshold decides", () => {
    const dropped = draft.caption.replace(" #ad", "");
    expect(matchApprovedDraft(draft, dropped, 0.99).differences).toEqual([
      expect.stringMatching(
        /^caption differs from the approved draft \(revision 2\): 9\d % the same, at least 99 % needed$/,
      ),
      'approved draft text not in the post: "#ad"',
    ]);
    expect(matchApprovedDraft(draft, dropped, 0.9).matches).toBe(true);
  });

  it("a post far longer than the draft is bounded by the lengths, without the quadratic table", () => {
    const long = `${draft.caption} ${"spam ".repeat(200_000)}`;
    const m = matchApprovedDraft(draft, long, 0.9);
    expect(m.matches).toBe(false);
    // "at most": the figure is the bound from the two lengths, which only the path that skips
    // the edit-distance table writes (a timed assertion would fail on a busy machine instead).
    expect(m.differences[0]).toMatch(/: at most 0 % the same, at least 90 % needed$/);
    expect(captionSimilarity("", "")).toEqual({ similarity: 1, exact: true });
  });

  it("word runs: what only the draft has and what only the post has", () => {
    expect(wordDiff("a b c d", "a x c d e")).toEqual([
      { op: "added", words: ["x"] },
      { op: "removed", words: ["b"] },
      { op: "added", words: ["e"] },
    ]);
  });
});
