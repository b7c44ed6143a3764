import { z } from "zod";
import { advanceClock, clockOffsetSeconds, now, testClockAllowed } from "@/lib/clock";
import { notFound } from "@/lib/errors";
import { methodNotAllowed, route } from "@/lib/http";

// The test clock of a local demo (lib/clock.ts): GET reads it, POST moves it forward.
// 404 anywhere else, like the dev identity provider.

const body = z.object({
  advanceSeconds: z
    .number()
    .int()
    .positive("must be more than 0")
    .max(366 * 24 * 3600, "must be at most a year"),
});

const clockJson = () => ({ now: now().toISOString(), offsetSeconds: clockOffsetSeconds() });

export const GET = route({}, async () => {
  if (!testClockAllowed()) throw notFound("Page");
  return Response.json(clockJson(), { headers: { "cache-control": "no-store" } });
});

// POST /api/dev/clock – { advanceSeconds }: the service's timers see that much time pass
export const POST = route({ body }, async ({ body }) => {
  if (!testClockAllowed()) throw notFound("Page");
  advanceClock(body.advanceSeconds);
  return Response.json(clockJson());
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
