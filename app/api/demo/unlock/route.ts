import { z } from "zod";
import { getDb } from "@/lib/db";
import { unlockCookie, unlockDemo } from "@/lib/demo/unlock";
import { methodNotAllowed, route } from "@/lib/http";
import { clientKey } from "@/lib/rate-limit";

const secret = z.string().min(1, "is required").max(500);
// `{ code }` is the original interface's name for the passphrase (accepted as an alias).
const body = z
  .object({ passphrase: secret.optional(), code: secret.optional() })
  .transform((b, ctx) => {
    const passphrase = b.passphrase ?? b.code;
    if (passphrase === undefined) {
      ctx.addIssue({ code: "custom", path: ["passphrase"], message: "is required" });
      return z.NEVER;
    }
    return { passphrase };
  });

// POST /api/demo/unlock – exchange the demo passphrase for a signed unlock cookie
export const POST = route({ body }, async ({ req, body }) => {
  const token = await unlockDemo(await getDb(), clientKey(req), body.passphrase);
  return Response.json({ unlocked: true }, { headers: { "Set-Cookie": unlockCookie(token) } });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
