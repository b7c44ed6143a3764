import { devIdpJwks, devOnly } from "@/lib/auth/dev-idp";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/dev/jwks – the dev identity provider's public signing keys (404 when disabled)
export const GET = devOnly(
  route({}, async () =>
    Response.json(await devIdpJwks(), { headers: { "cache-control": "public, max-age=60" } }),
  ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
