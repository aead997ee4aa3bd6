import path from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { editorFrame } from "./app/editor/frame/vite-plugin.ts";

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter(), editorFrame()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
});
