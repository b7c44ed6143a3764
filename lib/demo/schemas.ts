import { z } from "zod";

// POST /api/demo/unlock: its body and answer (the route, the reference and /docs use these).

const secret = z.string().min(1, "is required").max(500);

/** `{ passphrase }`, or `{ code }`: the original interface's name for it (an alias). */
export const unlockBody = z
  .object({
    passphrase: secret.optional(),
    code: secret.optional().describe("Alias of passphrase (the original interface)"),
  })
  .transform((b, ctx) => {
    const passphrase = b.passphrase ?? b.code;
    if (passphrase === undefined) {
      ctx.addIssue({ code: "custom", path: ["passphrase"], message: "is required" });
      return z.NEVER;
    }
    return { passphrase };
  });

export const unlockedResponse = z.object({ unlocked: z.literal(true) });
