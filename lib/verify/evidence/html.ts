// Just enough HTML reading for oEmbed snippets and OpenGraph tags: no DOM, no scripts run.

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === "#") {
      const n =
        code[1]?.toLowerCase() === "x" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return NAMED[code.toLowerCase()] ?? whole;
  });
}

/** Text content of an HTML fragment: tags removed, <br> and </p> as line breaks, entities decoded. */
export function textOf(html: string): string {
  const text = html
    .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .replace(/[ \t]+/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The attributes of one tag, names lower-cased, values decoded. */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z_:-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    const name = m[1]?.toLowerCase();
    if (name) out[name] = decodeEntities(m[3] ?? m[4] ?? m[5] ?? "");
  }
  return out;
}

/** <meta property|name=… content=…> of a page's head, first occurrence of each key wins. */
export function metaTags(html: string): Record<string, string> {
  const head = html.slice(0, 512 * 1024);
  const out: Record<string, string> = {};
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    const key = (a.property ?? a.name ?? a.itemprop)?.toLowerCase();
    if (key && a.content !== undefined && !(key in out)) out[key] = a.content;
  }
  return out;
}

export function titleOf(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html.slice(0, 512 * 1024));
  return m?.[1] ? textOf(m[1]) : undefined;
}

/** <link rel="canonical" href="…">, when present. */
export function canonicalLink(html: string): string | undefined {
  for (const m of html.slice(0, 512 * 1024).matchAll(/<link\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    if (a.rel?.toLowerCase() === "canonical" && a.href) return a.href;
  }
  return undefined;
}
