import { z } from "zod";
import { relayStatus } from "@/lib/chain/relay";
import { methodNotAllowed, route } from "@/lib/http";

export const dynamic = "force-dynamic";

const query = z.object({
  chainId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53)
    .optional(),
});

// GET /api/relay/status – is gasless (relayed) settlement configured for this chain?
export const GET = route({ query }, ({ query }) => Response.json(relayStatus(query.chainId)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
