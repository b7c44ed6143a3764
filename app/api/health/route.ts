import { requireCronSecret } from "@/lib/cron";
import { checkHealth, healthDetail, healthQuery } from "@/lib/health";
import { methodNotAllowed, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /api/health – database and chain reachability (503 with the envelope when down);
// ?detail=1, for operators with the cron secret: what waits in the queues, and the signer's gas
export const GET = route({ query: healthQuery }, async ({ req, query }) => {
  if (query.detail !== "1") return Response.json(await checkHealth());
  await requireCronSecret(req);
  const [health, detail] = await Promise.all([checkHealth(), healthDetail()]);
  return Response.json({ ...health, detail }, { headers: { "cache-control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
