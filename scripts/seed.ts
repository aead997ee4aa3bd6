// `npm run db:seed`: seeds the local database and R2 (the ones `wrangler dev` uses) with the demo data.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "../db/schema.ts";
import { seed, type DemoFile } from "../db/seed/seed.ts";
import { SEEDED_SIGN_INS } from "./seeded-sign-ins.mjs";

const root = path.resolve(import.meta.dirname, "..");
const persistTo = process.argv.includes("--persist-to") ? process.argv[process.argv.indexOf("--persist-to") + 1] : ".wrangler/state";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml", ".txt": "text/plain; charset=utf-8", ".png": "image/png", ".jpg": "image/jpeg", ".json": "application/json",
};

async function readDemoSite(dir: string, prefix = ""): Promise<DemoFile[]> {
  const files: DemoFile[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix + entry.name;
    if (entry.isDirectory()) files.push(...(await readDemoSite(path.join(dir, entry.name), `${relative}/`)));
    else files.push({ path: relative, body: new Uint8Array(await readFile(path.join(dir, entry.name))), contentType: CONTENT_TYPES[path.extname(entry.name)] ?? "application/octet-stream" });
  }
  return files;
}

const { env, dispose } = await getPlatformProxy<Env>({
  configPath: path.join(root, "wrangler.toml"),
  persist: { path: path.resolve(root, persistTo, "v3") },
});
try {
  const demoFiles = await readDemoSite(path.join(root, "db/seed/demo-site"));
  const { seeded } = await seed(drizzle(env.DB, { schema }), env.UPLOADS, { password: SEEDED_SIGN_INS.password, demoFiles, appOrigin: env.APP_ORIGIN });
  console.log(seeded ? `Seeded the demo data (${demoFiles.length} demo-site files).` : "The database already has data; the seed left it alone.");
} finally {
  await dispose();
}
