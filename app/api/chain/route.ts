import { chainInfo } from "@/lib/chain/integrator-info";
import { methodNotAllowed, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /api/chain – public: the chain id, a public RPC URL, the USDC and escrow addresses, the
// token's EIP-712 domain and the confirmations the service waits for (no credential needed)
export const GET = route({}, async () => Response.json(await chainInfo()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
