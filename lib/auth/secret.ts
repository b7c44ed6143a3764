import { randomBytes } from "node:crypto";
import path from "node:path";
import { readOrCreateSecretFile } from "@/lib/auth/local-secrets";
import { dataDir, env, isEmbedded, isProduction } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The key material for session tokens. AUTH_SECRET when set. Otherwise 32 random bytes
// generated once under DATA_DIR/auth-secret — outside production, and in the embedded
// production setup (PGlite + local chain), which is exactly what productionProblems()
// in lib/env.ts accepts; any other production deployment must set AUTH_SECRET.

const cache = new Map<string, string>();

export function authSecretFile(dir: string = dataDir()): string {
  return path.join(dir, "auth-secret");
}

export function authSecret(): string {
  const e = env();
  if (e.AUTH_SECRET) return e.AUTH_SECRET;
  if (isProduction(e) && !isEmbedded(e))
    throw new AppError("not_configured", "AUTH_SECRET is not configured.");
  const file = authSecretFile(dataDir(e));
  let secret = cache.get(file);
  if (!secret) {
    secret = readOrCreateSecretFile(file, () => randomBytes(32).toString("hex")).trim();
    if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters`);
    cache.set(file, secret);
  }
  return secret;
}
