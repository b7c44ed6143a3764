import { z } from "zod";
import { settlementVias } from "@/db/schema";

export const settleBody = z.object({
  milestoneId: z.uuid("must be a UUID"),
  /** `relayer` is the original interface's name for `relay` (accepted as an alias). */
  via: z
    .enum([...settlementVias, "relayer"])
    .default("direct")
    .transform((v) => (v === "relayer" ? "relay" : v)),
  /** The gate: the verdict must be approved with at least this score (default: the deal's, 0.5). */
  minScore: z.number().min(0).max(1).optional(),
});
