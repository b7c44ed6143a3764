import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { eventListQuery, listEvents } from "@/lib/events/objects";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/events – every event the caller may see (the deals they are a party of), with
// each object's snapshot and, for changes, previous_attributes; ?type, ?object, cursor
// pages; ?order=asc&wait=N long-polls for what comes next (npm run listen).
export const GET = route(
  { auth: requireUser, scope: "read", query: eventListQuery },
  async ({ req, user, query }) => {
    const page = await listEvents(await getDb(), user, query, req.signal);
    return Response.json(page, { headers: { "cache-control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
