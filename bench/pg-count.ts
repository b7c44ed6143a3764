// A TCP proxy in front of PostgreSQL that counts what its clients send, for `npm run bench --
// trips`: statements executed (extended-protocol Execute and simple Query messages, with their
// text), transactions begun, and round trips — the times a connection sends again after the
// server has answered it (statements sent together, pipelined, count once). It parses only the
// client's side of the protocol (message type and length, Parse/Bind/Query texts) and passes
// every byte through unchanged. Bench-only: no TLS (the local server is reached in clear).

import type { AddressInfo } from "node:net";
import { connect, createServer, type Server, type Socket } from "node:net";

export type PgCounts = {
  statements: number;
  transactions: number;
  roundTrips: number;
  /** Statements by their text's first words (e.g. `update "signer_nonces"`). */
  byText: Map<string, number>;
  /** Every statement in order: connection number, a `+` when it went in the same round trip as
   * the one before it on that connection, and its text's first 120 characters. */
  trace: string[];
};

export type PgCounter = {
  /** A URL like `server` but through the proxy. */
  url: string;
  counts: PgCounts;
  reset(): void;
  close(): Promise<void>;
};

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/** A statement's text shortened to what names it: its verb and first table. */
export function statementKey(text: string): string {
  const t = text.replace(/\s+/g, " ").trim().toLowerCase();
  const table = /(?:from|into|update|join)\s+("?[a-z_]+"?)/.exec(t)?.[1] ?? "";
  const verb = /^(with|select|insert|update|delete|begin|commit|rollback|savepoint|release)/.exec(
    t,
  )?.[1];
  return `${verb ?? t.slice(0, 20)} ${table}`.trim();
}

export async function startPgCounter(server: string): Promise<PgCounter> {
  const target = new URL(server);
  const fresh = (): PgCounts => ({
    statements: 0,
    transactions: 0,
    roundTrips: 0,
    byText: new Map(),
    trace: [],
  });
  const counter = { counts: fresh() } as { counts: PgCounts };
  const sockets = new Set<Socket>();

  let connections = 0;
  const onConnection = (client: Socket) => {
    const conn = ++connections;
    let sameTrip = false;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buffer = Buffer.alloc(0);
    let untyped = 1; // the startup message (and an SSL/GSS request before it) has no type byte
    let answered = true; // the server spoke since this connection last sent
    const named = new Map<string, string>(); // prepared statement name → text
    let unnamed = "";
    let bound = "";
    const count = (text: string) => {
      const c = counter.counts;
      c.statements++;
      const key = statementKey(text);
      c.byText.set(key, (c.byText.get(key) ?? 0) + 1);
      if (key.startsWith("begin")) c.transactions++;
      c.trace.push(`${conn}${sameTrip ? "+" : " "} ${text.replace(/\s+/g, " ").slice(0, 120)}`);
      sameTrip = true;
    };
    const cstring = (b: Buffer, at: number): [string, number] => {
      const end = b.indexOf(0, at);
      return [b.toString("utf8", at, end), end + 1];
    };
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (answered) {
        counter.counts.roundTrips++;
        answered = false;
        sameTrip = false;
      }
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (untyped > 0) {
          if (buffer.length < 8) break;
          const len = buffer.readInt32BE(0);
          if (buffer.length < len) break;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(len);
          if (code !== SSL_REQUEST && code !== GSS_REQUEST) untyped--;
          continue;
        }
        if (buffer.length < 5) break;
        const type = String.fromCharCode(buffer[0] as number);
        const len = buffer.readInt32BE(1);
        if (buffer.length < len + 1) break;
        const body = buffer.subarray(5, len + 1);
        buffer = buffer.subarray(len + 1);
        if (type === "P") {
          const [name, at] = cstring(body, 0);
          const [text] = cstring(body, at);
          if (name) named.set(name, text);
          else unnamed = text;
        } else if (type === "B") {
          const [, at] = cstring(body, 0);
          const [name] = cstring(body, at);
          bound = name ? (named.get(name) ?? "?") : unnamed;
        } else if (type === "E") count(bound);
        else if (type === "Q") count(cstring(body, 0)[0]);
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      answered = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  };

  const proxy: Server = createServer(onConnection);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  const url = new URL(server);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    get counts() {
      return counter.counts;
    },
    reset() {
      counter.counts = fresh();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  };
}
