import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { rotateSecret } from "@/lib/webhooks/endpoints";

const params = z.object({ id: z.uuid("must be a UUID") });

// POST /api/webhooks/:id/rotate-secret – a new signing secret, shown once; the old one stops at once
export const POST = route(
  { auth: requireUser, scope: "webhooks", params },
  async ({ user, params }) => Response.json(await rotateSecret(await getDb(), user, params.id)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
