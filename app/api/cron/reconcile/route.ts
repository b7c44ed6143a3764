import { timingSafeEqual } from "node:crypto";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http";
import { reconcile } from "@/lib/settle/reconcile";

export const dynamic = "force-dynamic";

async function requireCronSecret(req: Request): Promise<null> {
  const secret = env().CRON_SECRET;
  if (!secret) throw new AppError("not_configured", "CRON_SECRET is not configured.");
  const given = Buffer.from(req.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new AppError("unauthenticated", "This route needs the cron secret.");
  return null;
}

// GET /api/cron/reconcile – finish settlements left pending or submitted (Vercel Cron style)
export const GET = route({ auth: requireCronSecret }, async () =>
  Response.json(await reconcile(await getDb())),
);
