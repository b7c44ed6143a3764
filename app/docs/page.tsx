import type { Metadata } from "next";
import { z } from "zod";
import { reference as endpoints, referenceExamples } from "@/app/api/reference";
import { Changelog } from "@/components/docs/changelog";
import { FundingDocs } from "@/components/docs/funding-docs";
import { QUICKSTART_BLOCKS } from "@/components/docs/quickstart";
import { TryIt } from "@/components/docs/try-it";
import { WebhookDocs } from "@/components/webhooks/webhook-docs";
import { TYPESCRIPT_SETUP } from "@/lib/api/examples";
import { appUrl } from "@/lib/env";
import { errorsOf, responseSummary } from "@/lib/openapi";

export const metadata: Metadata = { title: "API reference" };

function exampleBody(schema: z.ZodType): string {
  return JSON.stringify(
    z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }).properties ?? {},
    null,
    2,
  );
}

/** An anchor id for a tag's section ("Deals" → "tag-deals"). */
function tagId(tag: string): string {
  return `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

/** Text with `backticked` words shown as code. */
function withCode(text: string) {
  return text.split("`").map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
    i % 2 === 1 ? <code key={i}>{part}</code> : part,
  );
}

/**
 * The errors an endpoint can answer, collapsed (every endpoint has several; the page stays
 * scannable): status and codes as code, the note in words.
 */
function ErrorList({ errors }: { errors: string[] }) {
  return (
    <details className="small">
      <summary className="muted">Errors ({errors.length})</summary>
      <ul className="error-list">
        {errors.map((text) => {
          const [, head = text, note] = /^(.+?)(?:\s+\((.*)\))?$/.exec(text) ?? [];
          return (
            <li key={text}>
              <code>{head}</code>
              {note ? <span className="muted"> — {note}</span> : null}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** A code block that scrolls sideways and can be reached by keyboard to scroll it. */
function Code({ label, children }: { label: string; children: string }) {
  return (
    <div className="stack" style={{ gap: "0.25rem" }}>
      <span className="small muted">{label}</span>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <pre className="mono small scroll-x" tabIndex={0}>
        {children}
      </pre>
    </div>
  );
}

export default function DocsPage() {
  const tags = [...new Set(endpoints.map((e) => e.tag))];
  const examples = referenceExamples(appUrl());
  const exampleOf = (e: { method: string; path: string }) => {
    const ex = examples.get(`${e.method} ${e.path}`);
    if (!ex) throw new Error(`no example for ${e.method} ${e.path}`);
    return ex;
  };
  return (
    <div className="stack">
      <section className="card stack">
        <h1>API reference</h1>
        <p className="muted">
          The browser app and third parties use the same JSON API. Machine-readable:{" "}
          <a href="/api/openapi.json">/api/openapi.json</a>.
        </p>
        <ul className="doc-facts small">
          <li>
            <strong>Credentials.</strong> Programs send{" "}
            <code>Authorization: Bearer &lt;credential&gt;</code>: an API key (
            <a href="/settings/keys">Settings → API keys</a>; each endpoint below names the one
            scope a key needs: read, write, settle (anything that moves money) or webhooks;
            rate-limited with <code>RateLimit-*</code> headers), the token{" "}
            <code>POST /api/auth/session</code> returns, or your identity provider&apos;s ID token.
          </li>
          <li>
            <strong>Session only.</strong> Account and session management (sign-out, role, wallet,
            display name, handles, API keys) needs a session: an API key, whatever its scopes, or a
            bare identity token gets <code>403 forbidden</code> there.
          </li>
          <li>
            <strong>Errors</strong> have one shape:{" "}
            <code>{'{ "error": { "code", "message", "details"?, "requestId" } }'}</code>; every
            answer carries <code>Request-Id</code>, the same id.
          </li>
          <li>
            <strong>Values.</strong> Amounts the service computes are decimal strings in USDC; ids
            are UUIDs.
          </li>
        </ul>
        <nav aria-label="On this page" className="doc-toc small">
          <strong>On this page:</strong>
          <ul>
            <li>
              <a href="#money-flow">How the money moves</a>
            </li>
            <li>
              <a href="#quickstart">Quickstart</a>
            </li>
            <li>
              <a href="#typed-client">The typed client</a>
            </li>
            <li>
              <a href="#funding">Funding a deal</a>
            </li>
            <li>
              <a href="#try-it">Try it</a>
            </li>
            <li>
              <a href="#webhooks">Verifying webhooks</a>
            </li>
            <li>
              <a href="#changelog">Versions and changelog</a>
            </li>
            {tags.map((tag) => (
              <li key={tag}>
                <a href={`#${tagId(tag)}`}>{tag}</a>
              </li>
            ))}
          </ul>
        </nav>
      </section>
      <section className="card stack" aria-labelledby="money-flow">
        <h2 id="money-flow">How the money moves</h2>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe scrollable-region-focusable) */}
        <pre className="mono small scroll-x" tabIndex={0}>
          {`brand wallet ──fund(dealRef, evaluator, deadline, amounts)──▶ MilestoneEscrow
                                                                  │
      settle (evaluator: release(…, payout, verdictHash)) ────────┤
                                                                  ├─ payout ─────▶ creator
                                                                  └─ remainder ──▶ brand
      brand: cancel(dealKey) while nobody took the deal ──────────── everything ─▶ brand
      (dealKey = keccak256(abi.encode(brand wallet, dealRef)): only the funder's own key)
      anyone, after deadline + 7 days: refundExpired(dealKey, i) ─── milestone i ▶ brand`}
        </pre>
        <p className="small">
          The brand&apos;s USDC is locked in the escrow contract before a creator can see the deal.
          Money leaves it only to the deal&apos;s creator or back to the brand — never to the
          service. The service is the deal&apos;s evaluator: it can release each milestone once,
          paying at most its amount, and every release carries the hash of the verdict record it was
          decided on. The brand can always take back what was not released after the deadline plus
          the grace period, without the service.
        </p>
      </section>
      <section className="card stack" aria-labelledby="quickstart">
        <h2 id="quickstart">Quickstart</h2>
        <p className="small">
          Create an API key, create and fund a deal, and receive its webhooks, from a shell (curl
          and jq). The key step and the test USDC work on a local run of the app (
          <code>npm run dev</code>); on a deployment, make the key in{" "}
          <a href="/settings/keys">Settings → API keys</a> and send real USDC to the deposit
          address.
        </p>
        {QUICKSTART_BLOCKS.map((block, i) => (
          <Code key={block.title} label={`${i + 1}. ${block.title}`}>
            {block.script.replace(/^export MILESTONE_URL=.*$/m, `export MILESTONE_URL=${appUrl()}`)}
          </Code>
        ))}
      </section>
      <section className="card stack" aria-labelledby="typed-client">
        <h2 id="typed-client">The typed client</h2>
        <p className="small">
          Every endpoint below has a curl command, the same request through the typed client and an
          example answer, all generated from the schemas the API validates with. The client types
          each call&apos;s path, query, body and answer from this reference; set it up once:
        </p>
        <Code label="TypeScript: set up the client">{TYPESCRIPT_SETUP}</Code>
      </section>
      <FundingDocs />
      <div id="try-it">
        <TryIt
          endpoints={endpoints
            .filter((e) => e.auth === true && !e.sessionOnly)
            .map((e) => {
              const { request } = exampleOf(e);
              const query = new URLSearchParams(
                Object.entries(request.query).map(([k, v]) => [k, String(v)]),
              ).toString();
              return {
                method: e.method,
                path: e.path,
                url: `${request.path}${query ? `?${query}` : ""}`,
                example:
                  request.body === undefined ? undefined : JSON.stringify(request.body, null, 2),
              };
            })}
        />
      </div>
      <WebhookDocs />
      <Changelog />
      {tags.map((tag) => (
        <section key={tag} className="stack" aria-labelledby={tagId(tag)}>
          <h2 id={tagId(tag)}>{tag}</h2>
          {endpoints
            .filter((e) => e.tag === tag)
            .map((e) => (
              <article
                key={`${e.method} ${e.path}`}
                className="card stack"
                style={{ gap: "0.5rem" }}
              >
                <div className="row">
                  <span
                    className={`badge plain method ${e.method === "GET" ? "ok" : e.method === "DELETE" ? "bad" : ""}`}
                  >
                    {e.method}
                  </span>
                  <code className="endpoint-path">{e.path}</code>
                  <span className="badge neutral plain">
                    {e.auth === "cron"
                      ? "Cron secret"
                      : e.sessionOnly
                        ? "Session only (no API key)"
                        : e.auth
                          ? `API key (${e.scope}) or session`
                          : "No auth"}
                  </span>
                </div>
                <p style={{ margin: 0 }}>{withCode(e.summary)}</p>
                {e.body ? (
                  <details>
                    <summary className="small muted">Request body</summary>
                    {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe scrollable-region-focusable) */}
                    <pre className="mono small scroll-x" tabIndex={0}>
                      {exampleBody(e.body)}
                    </pre>
                  </details>
                ) : null}
                <div className="small">
                  <strong>Response:</strong> <code>{responseSummary(e)}</code>
                </div>
                <details>
                  <summary className="small muted">Examples: curl, TypeScript, response</summary>
                  <div className="stack" style={{ gap: "0.5rem" }}>
                    <Code label={`curl: ${e.method} ${e.path}`}>{exampleOf(e).curl}</Code>
                    <Code label={`TypeScript: ${e.method} ${e.path}`}>
                      {exampleOf(e).typescript}
                    </Code>
                    <Code label={`Example response: ${e.method} ${e.path}`}>
                      {exampleOf(e).response === null
                        ? "(no body)"
                        : JSON.stringify(exampleOf(e).response, null, 2)}
                    </Code>
                  </div>
                </details>
                <ErrorList errors={errorsOf(e)} />
              </article>
            ))}
        </section>
      ))}
    </div>
  );
}
