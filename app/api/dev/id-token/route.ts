import { devOnly, signDevIdToken } from "@/lib/auth/dev-idp";
import { devIdTokenBody } from "@/lib/auth/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/dev/id-token – the dev identity provider issues an ID token (404 when disabled)
export const POST = devOnly(
  route({ body: devIdTokenBody }, async ({ body }) =>
    Response.json(
      { idToken: await signDevIdToken(body) },
      { headers: { "cache-control": "no-store" } },
    ),
  ),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
