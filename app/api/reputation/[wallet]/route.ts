import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { addressSchema } from "@/lib/auth/schemas";
import { readReputation } from "@/lib/chain/reputation";
import { methodNotAllowed, route } from "@/lib/http";

const reputationParams = z.object({ wallet: addressSchema });

// GET /api/reputation/:wallet – settled milestones and mean score, read from the registry
export const GET = route(
  { auth: requireUser, scope: "read", params: reputationParams },
  async ({ params }) =>
    Response.json(await readReputation(params.wallet), {
      headers: { "cache-control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
