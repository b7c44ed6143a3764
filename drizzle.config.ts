import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema.ts (`npm run db:generate`) and committed;
// they apply unchanged to PGlite and to PostgreSQL.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
  casing: "snake_case",
});
