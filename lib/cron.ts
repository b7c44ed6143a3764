import { randomBytes, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { readOrCreateSecretFile } from "@/lib/auth/local-secrets";
import { dataDir, env, isEmbedded } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The secret of the cron routes (Vercel Cron sends it as a bearer token). CRON_SECRET when
// set; in the embedded setup, one generated under DATA_DIR, so that `npm run reconcile`
// (another process, same DATA_DIR) can ask the running app to reconcile instead of
// opening its database.

export function cronSecret(): string | null {
  const e = env();
  if (e.CRON_SECRET) return e.CRON_SECRET;
  if (!isEmbedded(e)) return null;
  return readOrCreateSecretFile(path.join(dataDir(e), "cron-secret"), () =>
    randomBytes(32).toString("hex"),
  ).trim();
}

/** Route authenticator: the request must carry `Authorization: Bearer <cron secret>`. */
export async function requireCronSecret(req: Request): Promise<null> {
  const secret = cronSecret();
  if (!secret) throw new AppError("not_configured", "CRON_SECRET is not configured.");
  const given = Buffer.from(req.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new AppError("unauthenticated", "This route needs the cron secret.");
  return null;
}

/** GET /api/cron/reconcile's query (the route validates with it; the reference shows it). */
export const reconcileQuery = z.object({
  settlement: z.uuid("must be a settlement id").optional().describe("Finish just this settlement"),
});
