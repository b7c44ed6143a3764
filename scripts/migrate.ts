// npm run db:migrate — apply the committed migrations to DATABASE_URL (production).
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { migrationsFolder } from "@/db/client";
import { env } from "@/lib/env";

async function main() {
  const url = env().DATABASE_URL;
  if (!url) {
    console.log("DATABASE_URL is not set: the embedded PGlite database migrates itself on start.");
    return;
  }
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder });
    console.log("migrations applied");
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
