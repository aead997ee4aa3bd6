import { defineConfig } from "drizzle-kit";

// `db/migrations` is also wrangler's `migrations_dir`: wrangler applies the SQL files in order and
// ignores drizzle-kit's `meta/` folder, which drizzle-kit needs to diff the next migration.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
