import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

// Secrets the embedded setup generates once and keeps under DATA_DIR (the auth secret,
// the dev identity provider's key). Several processes may start at once (test workers,
// `next dev` and a script), so a file is created atomically: written under a temporary
// name, then hard-linked into place, which fails if another process won the race — and
// then that process's complete file is what everybody reads.

export function readOrCreateSecretFile(file: string, create: () => string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(tmp, create(), { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(file, "utf8");
}
