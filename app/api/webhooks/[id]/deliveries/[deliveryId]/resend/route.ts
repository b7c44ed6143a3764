import { after } from "next/server";
import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { log } from "@/lib/log";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { resendDelivery } from "@/lib/webhooks/endpoints";

const params = z.object({ id: z.uuid("must be a UUID"), deliveryId: z.uuid("must be a UUID") });

// POST /api/webhooks/:id/deliveries/:deliveryId/resend – queue it again, sent right after this answer
export const POST = route(
  { auth: requireUser, scope: "webhooks", params },
  async ({ user, params }) => {
    const db = await getDb();
    const delivery = await resendDelivery(db, user, params.id, params.deliveryId);
    try {
      // After the response: the send is never part of the request (the outbox loop is the fallback).
      after(() =>
        drainWebhooks(db, { endpointId: params.id, maxBatches: 1 }).catch((err) =>
          log.warn("resend: drain failed", { err }),
        ),
      );
    } catch {
      // Outside a request scope (tests calling the handler): the next drain sends it.
    }
    return Response.json({ delivery }, { status: 202 });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
