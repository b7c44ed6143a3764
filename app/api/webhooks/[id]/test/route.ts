import { after } from "next/server";
import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { log } from "@/lib/log";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { sendTestEvent } from "@/lib/webhooks/endpoints";
import { testEventBody } from "@/lib/webhooks/test-events";

const params = z.object({ id: z.uuid("must be a UUID") });

// POST /api/webhooks/:id/test – a test event of any type, signed and sent like a real one right after this answer
export const POST = route(
  { auth: requireUser, scope: "webhooks", params, body: testEventBody },
  async ({ user, params, body }) => {
    const db = await getDb();
    const delivery = await sendTestEvent(db, user, params.id, body.type);
    try {
      // After the response, as a resend: the outbox loop retries it if this send fails.
      after(() =>
        drainWebhooks(db, { endpointId: params.id, maxBatches: 1 }).catch((err) =>
          log.warn("test event: drain failed", { err }),
        ),
      );
    } catch {
      // Outside a request scope (tests calling the handler): the next drain sends it.
    }
    return Response.json({ delivery }, { status: 202 });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
