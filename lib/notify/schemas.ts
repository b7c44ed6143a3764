import { z } from "zod";

// Request bodies of the notifications API (also the API reference's schemas).

export const markReadBody = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkReadBody = z.infer<typeof markReadBody>;
