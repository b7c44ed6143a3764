import { checkHealth } from "@/lib/health";
import { methodNotAllowed, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /api/health – database and chain reachability (503 with the envelope when down)
export const GET = route({}, async () => Response.json(await checkHealth()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
