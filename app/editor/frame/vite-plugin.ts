/**
 * `virtual:editor-frame`: the in-frame editor (main.ts and what it imports) bundled by esbuild
 * into one minified IIFE, as a string the Worker serves at /api/editor/frame.js, with a version
 * taken from its SHA-256 (the script's URL carries it, so it can be cached for good).
 * Used by vite.config.ts and by the vitest projects that load the API.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Plugin } from "vite";

const ID = "virtual:editor-frame";
const RESOLVED = `\0${ID}`;
// import.meta.url, which Vite keeps pointing at this file when it bundles the config.
const appDir = fileURLToPath(new URL("../..", import.meta.url));

export interface EditorFrameBundle {
  code: string;
  version: string;
  /** Subresource-integrity value of `code`. */
  integrity: string;
  inputs: string[];
}

export async function bundleEditorFrame(): Promise<EditorFrameBundle> {
  const result = await build({
    entryPoints: [path.join(appDir, "editor/frame/main.ts")],
    bundle: true,
    format: "iife",
    minify: true,
    write: false,
    metafile: true,
    platform: "browser",
    target: ["chrome109", "firefox115", "safari16"],
    alias: { "~": appDir },
    legalComments: "none",
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  const digest = createHash("sha256").update(code).digest();
  return {
    code,
    version: digest.toString("hex").slice(0, 16),
    integrity: `sha256-${digest.toString("base64")}`,
    inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)),
  };
}

export function editorFrame(): Plugin {
  return {
    name: "editor-frame",
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const bundle = await bundleEditorFrame();
      for (const input of bundle.inputs) this.addWatchFile(input);
      return [
        `export const code = ${JSON.stringify(bundle.code)};`,
        `export const version = ${JSON.stringify(bundle.version)};`,
        `export const integrity = ${JSON.stringify(bundle.integrity)};`,
      ].join("\n");
    },
  };
}
