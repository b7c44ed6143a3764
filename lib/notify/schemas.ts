import { z } from "zod";
import { pageQuery } from "@/lib/pagination";

// Request bodies of the notifications API (also the API reference's schemas).

export const markReadBody = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkReadBody = z.infer<typeof markReadBody>;

/** GET /api/notifications's query (the route validates with it; the reference shows it). */
export const notificationsQuery = pageQuery.extend({
  unread: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1")
    .describe("Only unread ones"),
});
