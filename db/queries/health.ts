import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

/** One round trip to the database (the health check). */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}
