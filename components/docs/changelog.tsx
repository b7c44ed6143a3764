import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER } from "@/lib/api/versions";

// /docs#changelog: the dated API versions (lib/api/versions.ts), newest first, and how a
// client chooses one.

const withCode = (text: string) =>
  text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
      <code key={i}>{part.slice(1, -1)}</code>
    ) : (
      part
    ),
  );

export function Changelog() {
  return (
    <section className="card stack" aria-labelledby="changelog">
      <h2 id="changelog">Versions and changelog</h2>
      <p className="small">
        The API is versioned by date; the current version is <code>{CURRENT_API_VERSION}</code>. A
        new API key is pinned to the current version, and its requests are answered in it until you
        re-pin it (<code>PATCH /api/keys/:id {"{ apiVersion }"}</code>). Any request may choose a
        version with the <code>{VERSION_HEADER}: YYYY-MM-DD</code> header; sessions without it get
        the current one. Every answer says its version in the same header. Changes that could break
        a client only ever come with a new version.
      </p>
      <ul className="stack small" data-testid="api-versions">
        {API_VERSIONS.map((v) => (
          <li key={v.date}>
            <strong>
              <code>{v.date}</code>
              {v.date === CURRENT_API_VERSION ? " (current)" : ""}
            </strong>{" "}
            — {v.summary}
            <ul>
              {v.changes.map((c) => (
                <li key={c}>{withCode(c)}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
