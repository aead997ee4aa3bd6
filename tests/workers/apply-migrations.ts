import { applyD1Migrations, env } from "cloudflare:test";

// Each test file gets isolated storage; migrations run before its tests, as in production.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
