import type { Endpoint } from "@/lib/openapi";

// Examples for /docs, generated from the reference document (so from the handlers' zod
// schemas), never written per endpoint: a request you can send (path parameters, the query's
// required fields, the body's required fields, or every field when the required ones alone are
// refused, e.g. "send at least one of…"), the answer it gets, and that request as curl and
// as a call of the typed client. test/docs/examples.test.ts parses every request example with
// the route's own zod schemas and every answer with the documented response schema, and
// type-checks every TypeScript example against the client.

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
};

type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type Operation = {
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { content?: { "application/json"?: { schema: Schema } } }>;
};

/** Which fields an object's example has: the required ones, or all of them. */
type Fields = "required" | "all";

const EXAMPLE_UUID = "7c1f9a52-3b8e-4d6a-9f21-0e4b5c6d7a8f";
const EXAMPLE_ADDRESS = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const EXAMPLE_TIME = "2026-11-24T12:00:00.000Z";

/** A string matching a simple regular expression (literals, classes, \d \w, quantifiers, groups). */
export function sampleOfPattern(pattern: string): string {
  const src = pattern.replace(/^\^/, "").replace(/\$$/, "");
  let i = 0;
  let counter = 0;
  // Each atom yields a function producing its text, so quantifiers can repeat it.
  const parseSequence = (): (() => string)[] => {
    const atoms: (() => string)[] = [];
    while (i < src.length && src[i] !== ")" && src[i] !== "|") {
      let atom: () => string;
      const c = src[i] as string;
      if (c === "(") {
        i++;
        if (src.startsWith("?:", i)) i += 2;
        const first = parseSequence();
        while (src[i] === "|") {
          i++;
          parseSequence(); // other alternatives: the first one is the example
        }
        i++; // ")"
        atom = () => first.map((a) => a()).join("");
      } else if (c === "[") {
        const end = src.indexOf("]", i + 1);
        const body = src.slice(i + 1, end);
        i = end + 1;
        const chars: string[] = [];
        for (let k = 0; k < body.length; k++) {
          const from = body[k] === "\\" ? (body[++k] as string) : (body[k] as string);
          if (body[k + 1] === "-" && k + 2 < body.length) {
            const to = body[k + 2] as string;
            for (let code = from.charCodeAt(0); code <= to.charCodeAt(0); code++)
              chars.push(String.fromCharCode(code));
            k += 2;
          } else chars.push(from === "d" && body[k - 1] === "\\" ? "0" : from);
        }
        // One letter case: a mixed-case hex address would have to carry an EIP-55 checksum.
        const seen = new Set<string>();
        const pool = chars.filter((ch) => {
          const key = ch.toLowerCase();
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        atom = () => pool[counter++ % pool.length] ?? "a";
      } else if (c === "\\") {
        const e = src[i + 1] as string;
        i += 2;
        atom = e === "d" ? () => String(counter++ % 10) : e === "w" ? () => "a" : () => e;
      } else if (c === ".") {
        i++;
        atom = () => "a";
      } else {
        i++;
        atom = () => c;
      }
      // Quantifier: the least count it allows, at least one.
      let times = 1;
      const q = src[i];
      if (q === "{") {
        const end = src.indexOf("}", i);
        times = Math.max(1, Number(src.slice(i + 1, end).split(",")[0]));
        i = end + 1;
      } else if (q === "+" || q === "*" || q === "?") i++;
      const one = atom;
      atoms.push(() => Array.from({ length: times }, one).join(""));
    }
    return atoms;
  };
  return parseSequence()
    .map((a) => a())
    .join("");
}

function stringSample(s: Schema, name: string): string {
  // A format before a pattern: zod writes ISO dates with both.
  switch (s.format) {
    case "uuid":
      return EXAMPLE_UUID;
    case "email":
      return "creator@example.com";
    case "date-time":
      return EXAMPLE_TIME;
    case "date":
      return EXAMPLE_TIME.slice(0, 10);
    case "uri":
    case "url":
      return "https://example.com/post/1";
  }
  if (s.pattern) return sampleOfPattern(s.pattern);
  const text = name || "text";
  const min = s.minLength ?? 0;
  const padded = text.length >= min ? text : text.padEnd(min, "x");
  return s.maxLength !== undefined ? padded.slice(0, s.maxLength) : padded;
}

/** 1 when the schema allows it, else the bound nearest to it. */
function numberSample(s: Schema, integer: boolean): number {
  const low =
    s.minimum ??
    (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0.5) : -Infinity);
  const high =
    s.maximum ??
    (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 0.5) : Infinity);
  const n = Math.min(Math.max(1, low), high);
  return integer ? Math.ceil(n) : n;
}

/** An example value of a JSON Schema of the reference ($refs resolved in `doc`). */
export function sampleOf(
  doc: Document,
  schema: Schema,
  fields: Fields,
  name = "",
  depth = 0,
): unknown {
  if (depth > 12) return null;
  if (schema.$ref) {
    const id = schema.$ref.replace("#/components/schemas/", "");
    const target = doc.components?.schemas?.[id];
    return target ? sampleOf(doc, target, fields, name, depth + 1) : null;
  }
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) {
    const pick = union.find((s) => s.type !== "null") ?? (union[0] as Schema);
    return sampleOf(doc, pick, fields, name, depth + 1);
  }
  if (schema.allOf?.length) {
    const parts = schema.allOf.map((s) => sampleOf(doc, s, fields, name, depth + 1));
    return parts.every((p) => p && typeof p === "object" && !Array.isArray(p))
      ? Object.assign({}, ...parts)
      : parts[0];
  }
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== "null") ?? "null")
    : schema.type;
  switch (type) {
    case "string":
      return stringSample(schema, name);
    case "integer":
      return numberSample(schema, true);
    case "number":
      return numberSample(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      if (schema.prefixItems)
        return schema.prefixItems.map((s) => sampleOf(doc, s, fields, name, depth + 1));
      const item = schema.items ? sampleOf(doc, schema.items, fields, name, depth + 1) : "item";
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    default: {
      if (!schema.properties) {
        const extra = schema.additionalProperties;
        return extra && typeof extra === "object" && fields === "all"
          ? { key: sampleOf(doc, extra, fields, "value", depth + 1) }
          : {};
      }
      const required = new Set(schema.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties))
        if (fields === "all" || required.has(key))
          out[key] = sampleOf(doc, prop, fields, key, depth + 1);
      return out;
    }
  }
}

export type RequestExample = {
  /** The path with its parameters filled in. */
  path: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** undefined: the endpoint takes no body. */
  body: unknown;
};

/** A path parameter's example: an address for a wallet, else an id. */
const paramSample = (name: string) =>
  /wallet|address/i.test(name) ? EXAMPLE_ADDRESS : EXAMPLE_UUID;

/**
 * The request example: required fields only, or every field where `accepts` (the route's own
 * validation) refuses that. `accepts` gets the body or query and says whether it would parse.
 */
export function requestExample(
  doc: Document,
  e: Pick<Endpoint, "method" | "path">,
  accepts: { body?: (v: unknown) => boolean; query?: (v: unknown) => boolean } = {},
): RequestExample {
  const op = doc.paths[e.path]?.[e.method.toLowerCase()];
  const params: Record<string, string> = {};
  for (const name of e.path.match(/\{(\w+)\}/g) ?? [])
    params[name.slice(1, -1)] = paramSample(name.slice(1, -1));
  const path = e.path.replace(/\{(\w+)\}/g, (_, n: string) => params[n] as string);
  const pick = (schema: Schema, ok?: (v: unknown) => boolean) => {
    const minimal = sampleOf(doc, schema, "required");
    return !ok || ok(minimal) ? minimal : sampleOf(doc, schema, "all");
  };
  const querySchema: Schema = { type: "object", properties: {}, required: [] };
  for (const p of op?.parameters ?? [])
    if (p.in === "query" && p.schema) {
      (querySchema.properties as Record<string, Schema>)[p.name] = p.schema;
      if (p.required) querySchema.required?.push(p.name);
    }
  const query = pick(querySchema, accepts.query) as Record<string, unknown>;
  const bodySchema = op?.requestBody?.content["application/json"].schema;
  const body = bodySchema ? pick(bodySchema, accepts.body) : undefined;
  return { path, params, query, body };
}

/** The success answer's example (200, 201 or 202), every field shown; null for none (204). */
export function responseExample(doc: Document, e: Pick<Endpoint, "method" | "path">): unknown {
  const op = doc.paths[e.path]?.[e.method.toLowerCase()];
  const ok = Object.entries(op?.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
  const schema = ok?.[1].content?.["application/json"]?.schema;
  return schema ? sampleOf(doc, schema, "all") : null;
}

const queryString = (query: Record<string, unknown>) => {
  const entries = Object.entries(query).filter(([, v]) => v !== undefined);
  return entries.length
    ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}`
    : "";
};

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The credential a program sends to this endpoint, as an environment variable. */
function credentialVariable(e: Pick<Endpoint, "auth" | "sessionOnly">): string | null {
  if (e.auth === "cron") return "CRON_SECRET";
  if (!e.auth) return null;
  return e.sessionOnly ? "MILESTONE_SESSION_TOKEN" : "MILESTONE_API_KEY";
}

/** The request as a curl command against `baseUrl`. */
export function curlExample(
  e: Pick<Endpoint, "method" | "auth" | "sessionOnly">,
  ex: RequestExample,
  baseUrl: string,
): string {
  const lines = [
    `curl${e.method === "GET" ? "" : ` -X ${e.method}`} ${shellQuote(`${baseUrl}${ex.path}${queryString(ex.query)}`)}`,
  ];
  const credential = credentialVariable(e);
  if (credential) lines.push(`-H "Authorization: Bearer $${credential}"`);
  if (ex.body !== undefined) {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d ${shellQuote(JSON.stringify(ex.body))}`);
  }
  return lines.join(" \\\n  ");
}

/**
 * The typed clients the TypeScript examples call: `api` with an API key (or a session token:
 * it takes either), `session` for what needs a session, `cron` with the cron secret.
 */
export const TYPESCRIPT_SETUP = `import { createClient } from "@milestone/client";

const baseUrl = process.env.MILESTONE_URL as string; // e.g. https://milestone.example
const api = createClient({ baseUrl, apiKey: process.env.MILESTONE_API_KEY as string });
const session = createClient({ baseUrl, token: process.env.MILESTONE_SESSION_TOKEN as string });
const cron = createClient({ baseUrl, token: process.env.CRON_SECRET as string });`;

/** The request as a call of the typed client (`api.call(method, path, init)`; TYPESCRIPT_SETUP). */
export function typescriptExample(
  e: Pick<Endpoint, "method" | "path" | "auth" | "sessionOnly">,
  ex: RequestExample,
): string {
  const init: Record<string, unknown> = {};
  if (Object.keys(ex.params).length) init.path = ex.params;
  if (Object.keys(ex.query).length) init.query = ex.query;
  if (ex.body !== undefined) init.body = ex.body;
  const args = [JSON.stringify(e.method), JSON.stringify(e.path)];
  if (Object.keys(init).length) args.push(JSON.stringify(init, null, 2));
  const client = e.auth === "cron" ? "cron" : e.sessionOnly ? "session" : "api";
  return `const answer = await ${client}.call(${args.join(", ")});`;
}
