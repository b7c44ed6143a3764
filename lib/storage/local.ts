import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import {
  assertKey,
  type ObjectStorage,
  type RangeRequest,
  resolveRange,
  type StoredObject,
} from "./types";

// The embedded setup's storage: files under one directory (STORAGE_DIR, default
// `$DATA_DIR/uploads`), each with a small sidecar holding its content type. A write goes to
// a temporary name first and is renamed into place, so a reader never sees half a file.
// A deployment of several instances cannot use it (they share no disk): production refuses
// it unless STORAGE_LOCAL_IN_PRODUCTION says this is one machine whose disk lasts.

export class LocalStorage implements ObjectStorage {
  readonly driver = "local" as const;

  constructor(readonly root: string) {}

  private file(key: string): string {
    assertKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep))
      throw new Error(`storage key escapes the directory: ${key}`);
    return full;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(`${tmp}.meta`, JSON.stringify({ contentType }));
    await writeFile(tmp, bytes);
    await rename(`${tmp}.meta`, `${file}.meta`);
    await rename(tmp, file);
  }

  async get(key: string, range?: RangeRequest): Promise<StoredObject | null> {
    const file = this.file(key);
    let size: number;
    let contentType = "application/octet-stream";
    try {
      size = (await stat(file)).size;
      const meta = JSON.parse(await readFile(`${file}.meta`, "utf8")) as { contentType?: string };
      if (typeof meta.contentType === "string") contentType = meta.contentType;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    const bytes = range ? resolveRange(range, size) : undefined;
    const body = Readable.toWeb(createReadStream(file, bytes)) as ReadableStream<Uint8Array>;
    return { body, contentType, size, ...(bytes ? { range: bytes } : {}) };
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await rm(file, { force: true });
    await rm(`${file}.meta`, { force: true });
  }
}
