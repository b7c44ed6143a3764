import { relayStatusQuery as query, relayStatus } from "@/lib/chain/relay";
import { methodNotAllowed, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /api/relay/status – is gasless (relayed) settlement configured for this chain?
export const GET = route({ query }, ({ query }) => Response.json(relayStatus(query.chainId)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
