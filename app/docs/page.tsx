import type { Metadata } from "next";
import { z } from "zod";
import { endpoints } from "@/lib/openapi";

export const metadata: Metadata = { title: "API reference" };

function exampleBody(schema: z.ZodType): string {
  return JSON.stringify(
    z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }).properties ?? {},
    null,
    2,
  );
}

export default function DocsPage() {
  const tags = [...new Set(endpoints.map((e) => e.tag))];
  return (
    <div className="stack">
      <section className="card stack">
        <h1>API reference</h1>
        <p className="muted">
          The browser app and third parties use the same JSON API. Sign in with{" "}
          <code>POST /api/auth/session</code> and send the returned token as{" "}
          <code>Authorization: Bearer &lt;token&gt;</code>. Every error has one shape:{" "}
          <code>{'{ "error": { "code", "message", "details"? } }'}</code>. Amounts the service
          computes are decimal strings in USDC; ids are UUIDs. Machine-readable:{" "}
          <a href="/api/openapi.json">/api/openapi.json</a>.
        </p>
      </section>
      {tags.map((tag) => (
        <section key={tag} className="stack">
          <h2>{tag}</h2>
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
                    className={`badge ${e.method === "GET" ? "ok" : e.method === "DELETE" ? "bad" : ""}`}
                  >
                    {e.method}
                  </span>
                  <code>{e.path}</code>
                  <span className="badge neutral">
                    {e.auth ? "auth: bearer or cookie" : "no auth"}
                  </span>
                </div>
                <p style={{ margin: 0 }}>{e.summary}</p>
                {e.body ? (
                  <details>
                    <summary className="small muted">Request body</summary>
                    <pre className="mono small" style={{ overflowX: "auto" }}>
                      {exampleBody(e.body)}
                    </pre>
                  </details>
                ) : null}
                <div className="small">
                  <strong>Response:</strong> <code>{e.response}</code>
                </div>
                {e.errors.length ? (
                  <div className="small muted">
                    <strong>Errors:</strong> {e.errors.join(" · ")}
                  </div>
                ) : null}
              </article>
            ))}
        </section>
      ))}
    </div>
  );
}
