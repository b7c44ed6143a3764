import { reconcileQuery as query, requireCronSecret } from "@/lib/cron";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { reconcile } from "@/lib/settle/reconcile";

export const dynamic = "force-dynamic";

// GET /api/cron/reconcile – finish settlements left pending or submitted (Vercel Cron style);
// `?settlement=<id>` finishes just that one
export const GET = route({ auth: requireCronSecret, query }, async ({ query }) =>
  Response.json(await reconcile(await getDb(), { settlementId: query.settlement })),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
