import { describe, expect, it } from "vitest";
import {
  checkDisclosure,
  DISCLOSURE_FOLD,
  DISCLOSURE_MISSING,
  graphemeCount,
} from "@/lib/verify/checks";

// The FTC disclosure rule on captions (lib/verify/checks.ts): an accepted tag ending within
// the first 125 user-perceived characters, or the platform's paid-partnership label; no
// lookalike counts. Pure: the same function checks drafts and fetched posts.

const pad = (n: number) => "x".repeat(n);
// 120 characters of ordinary words, then the tag: it ends at character 123.
const words120 = `${"Loving my new sneakers, ".repeat(5)}`;

describe("checkDisclosure", () => {
  it.each([
    ["at the start", "#ad Loving my new sneakers from @brand", true],
    ["#sponsored at the start", "#sponsored New drop today", true],
    ["#paidpartnership in the middle", "New drop today #paidpartnership with @brand", true],
    ["at the end, within 125", `${words120}#ad`, true],
    ["case: #AD", "Launch day! #AD", true],
    ["case: #Ad", "Launch day! #Ad.", true],
    ["case: #SpOnSoReD", "#SpOnSoReD launch", true],
    ["in brackets, after a line break", "Launch day!\n(#ad)", true],
    ["followed by a full stop", "Launch day with @brand #ad.", true],
    ["after leading blank lines (not shown, not counted)", `\n\n   ${pad(121)} #ad`, true],
    ["one of several tags, the accepted one early", "#launch #ad #shoes", true],
    ["past the fold", `${pad(130)} #ad`, false],
    ["ending at character 126", `${pad(122)} #ad`, false],
    ["absent", "Loving my new sneakers from @brand", false],
    ["the word without a #", "ad: Loving my new sneakers", false],
    ["#adorable", "So #adorable, these sneakers", false],
    ["#advert (not an accepted tag)", "#advert new sneakers", false],
    ["#ads (not an accepted tag)", "#ads new sneakers", false],
    ["#ad_campaign", "#ad_campaign new sneakers", false],
    ["#ad-free (reads as the opposite)", "#ad-free new sneakers", false],
    ["#ad inside a word", "brand#ad new sneakers", false],
    ["#ad as a URL fragment", "see https://shop.example/#ad", false],
    ["Cyrillic а homoglyph", "#\u0430d new sneakers", false],
    ["full-width letters", "#\uff41\uff44 new sneakers", false],
    ["full-width number sign", "\uff03ad new sneakers", false],
    ["mathematical bold letters", "#\u{1d41a}\u{1d41d} new sneakers", false],
    ["zero-width space inside", "#a\u200bd new sneakers", false],
    ["zero-width joiner right after", "#ad\u200d new sneakers", false],
    ["soft hyphen inside", "#spon\u00adsored new sneakers", false],
    ["combining accent on the tag", "#ad\u0301 new sneakers", false],
    ["sp / spon / collab (vague, per the FTC)", "#sp #spon #collab new sneakers", false],
  ])("%s → %s", (_name, caption, expected) => {
    expect(checkDisclosure(caption).found).toBe(expected);
  });

  it("counts user-perceived characters: 120 family emoji and a tag end at character 124", () => {
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"; // one grapheme, 8 UTF-16 units
    const caption = `${family.repeat(120)} #ad`;
    expect(caption.length).toBeGreaterThan(900);
    expect(graphemeCount(caption)).toBe(124);
    expect(checkDisclosure(caption)).toMatchObject({ found: true, tag: "#ad", endsAt: 124 });
    // Two more, and the tag ends at 126: behind the fold.
    expect(checkDisclosure(`${family.repeat(122)} #ad`).found).toBe(false);
  });

  it("counts a letter with a combining accent and a flag as one character each", () => {
    const e = "e\u0301"; // é, decomposed
    const flag = "\u{1F1EB}\u{1F1F7}"; // 🇫🇷
    expect(graphemeCount(`${e}${flag}`)).toBe(2);
    const caption = `${e.repeat(60)}${flag.repeat(61)} #ad`; // 60 + 61 + 1 + 3 = 125
    expect(checkDisclosure(caption)).toMatchObject({ found: true, endsAt: DISCLOSURE_FOLD });
    expect(checkDisclosure(`${e}${caption}`).found).toBe(false);
  });

  it("accepts the platform's paid-partnership label without a tag", () => {
    const caption = "Loving my new sneakers from @brand";
    expect(checkDisclosure(caption, { platformLabel: true })).toMatchObject({
      found: true,
      via: "platform_label",
      missing: null,
    });
    expect(checkDisclosure(caption, { platformLabel: false }).found).toBe(false);
    // The label shows whatever the caption says, so a buried tag does not matter then.
    expect(checkDisclosure(`${pad(200)} #ad`, { platformLabel: true }).found).toBe(true);
  });

  it("says plainly what is missing: absent, or buried behind the fold with where it is", () => {
    expect(checkDisclosure("Loving it").missing).toBe(DISCLOSURE_MISSING);
    expect(DISCLOSURE_MISSING).toBe(
      "Disclosure: add #ad (or #sponsored, #paidpartnership) within the first 125 characters",
    );
    const buried = checkDisclosure(`${pad(130)} #Sponsored and more`);
    expect(buried).toMatchObject({ found: false, tag: "#Sponsored", endsAt: 141 });
    expect(buried.missing).toMatch(
      /^Disclosure: #Sponsored is at character 141, after the first 125/,
    );
    expect(checkDisclosure("#ad launch")).toMatchObject({
      found: true,
      via: "hashtag",
      tag: "#ad",
      endsAt: 3,
      missing: null,
    });
  });

  it("finds an early accepted tag after a buried lookalike and a late one after an early lookalike", () => {
    expect(checkDisclosure(`#adorable ${pad(10)} #ad`).found).toBe(true);
    expect(checkDisclosure(`#adorable ${pad(130)} #ad`)).toMatchObject({
      found: false,
      tag: "#ad",
    });
  });
});
