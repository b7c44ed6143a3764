import { getDb } from "@/lib/db";
import { unlockBody } from "@/lib/demo/schemas";
import { unlockCookie, unlockDemo } from "@/lib/demo/unlock";
import { methodNotAllowed, route } from "@/lib/http";
import { clientKey } from "@/lib/rate-limit";

// POST /api/demo/unlock – exchange the demo passphrase for a signed unlock cookie
export const POST = route({ body: unlockBody }, async ({ req, body }) => {
  const token = await unlockDemo(await getDb(), clientKey(req), body.passphrase);
  return Response.json({ unlocked: true }, { headers: { "Set-Cookie": unlockCookie(token) } });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
