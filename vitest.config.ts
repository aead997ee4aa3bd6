import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { editorFrame } from "./app/editor/frame/vite-plugin.ts";

const root = import.meta.dirname;
const alias = { "~": path.resolve(root, "app") };
const migrations = await readD1Migrations(path.join(root, "db/migrations"));

export default defineConfig({
  test: {
    projects: [
      {
        // The unit project loads the API (its OpenAPI document), which serves the in-frame editor.
        plugins: [editorFrame()],
        resolve: { alias },
        test: { name: "unit", environment: "node", include: ["tests/unit/**/*.test.ts", "app/**/*.test.ts", "agent/**/*.test.ts"] },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./workers/app.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
          }),
          editorFrame(),
        ],
        resolve: {
          alias: {
            ...alias,
            // Only the React Router vite plugin provides the server build; /api never loads it (STACK.md G6).
            "virtual:react-router/server-build": path.resolve(root, "tests/workers/stub-server-build.ts"),
          },
        },
        test: { name: "workers", include: ["tests/workers/**/*.test.ts"], setupFiles: ["./tests/workers/apply-migrations.ts"] },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["./tests/e2e/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One browser and one server per run; files share them one at a time (2-core machines).
          fileParallelism: false,
        },
      },
      {
        // Real FTP/FTPS/SFTP/S3/WebDAV servers on loopback (root; tests/servers/install.mjs first).
        test: { name: "servers", environment: "node", include: ["tests/servers/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 },
      },
      {
        // The connection agent: RemoteFs contract on the real servers above, and its guards (root; tests/servers/install.mjs first).
        test: {
          name: "agent",
          environment: "node",
          include: ["tests/agent/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
