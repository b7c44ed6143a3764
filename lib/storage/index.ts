import { type Env, env, storageDir, storageDriver } from "@/lib/env";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { ObjectStorage } from "./types";

export type { ObjectStorage, RangeRequest, StoredObject } from "./types";

// The process's storage, chosen by configuration (lib/env.ts): STORAGE_DRIVER, else an S3
// bucket when S3_BUCKET is set, else the local directory. Tests hand their own to the domain
// functions instead.

export function storageFromEnv(e: Env = env()): ObjectStorage {
  if (storageDriver(e) === "local") return new LocalStorage(storageDir(e));
  if (!e.S3_BUCKET) throw new Error("S3_BUCKET is required when STORAGE_DRIVER=s3");
  return new S3Storage({
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
  });
}

let cached: ObjectStorage | undefined;

/** The configured storage of this process (made once; it holds no state between requests). */
export function storage(): ObjectStorage {
  cached ??= storageFromEnv();
  return cached;
}

/** Tests that change the storage settings between cases call this. */
export function resetStorageCache(): void {
  cached = undefined;
}
