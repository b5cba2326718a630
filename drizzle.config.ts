import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema.ts",
  out: "./migrations",
  // wrangler keeps its own bookkeeping table beside ours; drizzle must never touch it.
  tablesFilter: ["!d1_migrations", "!_cf_*"],
});
