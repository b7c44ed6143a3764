import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

// The embedded database (PGlite) is one process's files: a second process opening the same
// directory gets its own diverging copy, and that is how a reconcile run beside the server
// once paid a milestone twice. Like PostgreSQL's postmaster.pid, whoever opens the
// directory first writes a lock file with its pid (and, for the app server, the URL where
// other processes can ask it to do work); everyone else is refused while that pid lives.

export type LockHolder = { pid: number; appUrl?: string; since: string };

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database at ${dir} is in use by another process (pid ${holder.pid}` +
        `${holder.appUrl ? `, the app at ${holder.appUrl}` : ""}). Only one process may open ` +
        "it: run this through the running app, or stop that process first.",
    );
    this.name = "DataDirInUseError";
  }
}

export const lockFileOf = (dir: string) => `${path.resolve(dir)}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process holding the directory, or null (no lock, or its process is gone). */
export function dataDirHolder(dir: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(lockFileOf(dir), "utf8")) as LockHolder;
    return Number.isInteger(holder.pid) && holder.pid !== process.pid && alive(holder.pid)
      ? holder
      : null;
  } catch {
    return null; // no lock file, or one cut short by a crash while being written
  }
}

/**
 * Takes the directory for this process; returns the release function. Throws
 * DataDirInUseError while another live process holds it; a stale lock (its process died)
 * is taken over.
 */
export function lockDataDir(dir: string, info: { appUrl?: string } = {}): () => void {
  const file = lockFileOf(dir);
  mkdirSync(path.dirname(file), { recursive: true });
  const content = JSON.stringify({
    pid: process.pid,
    since: new Date().toISOString(),
    ...info,
  } satisfies LockHolder);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600); // atomic: fails if the file exists
      writeSync(fd, content);
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 3) throw err;
      const holder = dataDirHolder(dir);
      if (holder) throw new DataDirInUseError(dir, holder);
      try {
        // Stale (dead pid or unreadable). Two processes may both see it stale: only one
        // of them re-creates the file with `wx` on the next attempt.
        unlinkSync(file);
      } catch {}
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      const holder = JSON.parse(readFileSync(file, "utf8")) as LockHolder;
      if (holder.pid === process.pid) unlinkSync(file);
    } catch {}
  };
  process.on("exit", release);
  return release;
}
