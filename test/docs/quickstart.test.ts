import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUICKSTART_BLOCKS } from "@/components/docs/quickstart";
import { verifySignature } from "@/lib/webhooks/signature";
import { inProcessFetch } from "../api/in-process-fetch";

// The README's API quickstart (issue 26, item 8), run exactly as written: its shell blocks are
// read from README.md, so a quickstart that drifts from the API fails here. The app is the
// real route handlers behind a real HTTP server on 127.0.0.1, on the embedded chain (anvil) and
// database; curl and jq are the reader's; `npm run listen` is the real CLI in its own process,
// forwarding to a receiver on localhost:4242 as the quickstart says. The deal must end funded
// (`open`) and the receiver must get its events, signed with the secret the listener printed.

const root = path.resolve(import.meta.dirname, "../..");

/** The fenced sh blocks of the README's "## API quickstart" section. */
function quickstartBlocks(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("API quickstart\n"));
  if (!section) throw new Error("README.md has no '## API quickstart' section");
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/** Requests the app is still answering (a long poll of the listener's, at the end). */
const inFlight = new Set<Promise<void>>();

/** The app over HTTP: each request handed to the route handlers in this process. */
function serveApp(): Promise<Server> {
  const server = createServer((req, res) => {
    const done = answer(req, res).finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  const answer = async (req: IncomingMessage, res: import("node:http").ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const answer = await inProcessFetch(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: body.length ? body : undefined,
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
    else res.end();
  };
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

type Received = { body: string; signature: string | undefined };

let app: Server;
let receiver: Server;
let listener: ChildProcess | undefined;
const received: Received[] = [];
let appUrl = "";

beforeAll(async () => {
  app = await serveApp();
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  // The quickstart's receiver address, http://localhost:4242/hook.
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      body: Buffer.concat(chunks).toString("utf8"),
      signature: req.headers["milestone-signature"] as string | undefined,
    });
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve, reject) => {
    receiver.once("error", reject);
    receiver.listen(4242, "localhost", resolve);
  });
});

afterAll(async () => {
  if (listener?.pid && listener.exitCode === null) {
    const exited = new Promise((resolve) => listener?.once("exit", resolve));
    process.kill(-listener.pid, "SIGTERM"); // its process group: npm, tsx and node
    await exited;
  }
  await new Promise((resolve) => receiver?.close(resolve));
  // The listener's last long poll is still being answered: let it end before the database closes.
  await Promise.all(inFlight);
  app?.closeAllConnections();
  await new Promise((resolve) => app?.close(resolve));
});

/** Runs a block with bash (-e, -o pipefail) and the quickstart's environment. */
function bash(script: string, env: Record<string, string>) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
    execFile(
      "bash",
      ["-eo", "pipefail", "-c", script],
      { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`))
          : resolve({ stdout, stderr }),
    ),
  );
}

describe("the README's API quickstart", () => {
  it("is the one /docs shows", () => {
    expect(QUICKSTART_BLOCKS.map((b) => b.script)).toEqual(quickstartBlocks());
  });

  it("creates a key, forwards webhooks, creates and funds a deal, exactly as written", async () => {
    const [keyBlock, listenBlock, dealBlock] = quickstartBlocks();
    expect(keyBlock).toContain("/api/keys");
    expect(listenBlock).toContain("npm run listen");
    expect(dealBlock).toContain("/funding/deposit");

    // 1. The key. MILESTONE_URL is the one line the reader's app and this one differ in.
    const withUrl = (block: string) =>
      block.replace(/^export MILESTONE_URL=.*$/m, `export MILESTONE_URL=${appUrl}`);
    expect(withUrl(keyBlock as string)).not.toBe(keyBlock);
    const key = await bash(`${withUrl(keyBlock as string)}\nprintf '%s' "$MILESTONE_API_KEY"`, {});
    const apiKey = key.stdout.trim();
    expect(apiKey).toMatch(/^mk_/);
    const env = { MILESTONE_URL: appUrl, MILESTONE_API_KEY: apiKey };

    // 2. The listener, in its own process (the second terminal), until it says it is ready.
    listener = spawn("bash", ["-eo", "pipefail", "-c", listenBlock as string], {
      cwd: root,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let printed = "";
    listener.stderr?.on("data", (d) => {
      printed += String(d);
    });
    const secret = await new Promise<string>((resolve, reject) => {
      listener?.stdout?.on("data", (d) => {
        printed += String(d);
        const m = /Your listener secret is (\S+)/.exec(printed);
        if (m) resolve(m[1] as string);
      });
      listener?.once("exit", (code) => reject(new Error(`listen exited ${code}: ${printed}`)));
    });

    // 3 and 4. The deal, funded through its deposit address on the embedded chain.
    const deal = await bash(dealBlock as string, env);
    expect(deal.stdout.trim()).toBe("open");

    // The receiver gets the deal's events, each signed with the printed secret.
    const types = () =>
      received.map((r) => (JSON.parse(r.body) as { type: string; data: unknown }).type);
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (types().includes("created") && types().includes("funded")) {
          clearInterval(check);
          resolve();
        }
        if (listener?.exitCode !== null) {
          clearInterval(check);
          reject(new Error(`listen stopped: ${printed}`));
        }
      }, 100);
    });
    for (const r of received) expect(verifySignature(r.signature, r.body, secret).ok).toBe(true);
    expect(types().indexOf("created")).toBeLessThan(types().indexOf("funded"));
    expect(types()).toEqual(expect.arrayContaining(["created", "deposit.received", "funded"]));
    expect(printed).toContain("--> funded");
  }, 180_000);
});
