/**
 * The source editor's rules (spec, "Source editor"): the mode by extension, and the indentation
 * auto-detected from the file (tabs shown 4 wide, else the common step of leading spaces, default 2).
 */

export type SourceMode = "html" | "css" | "javascript" | "php";

/**
 * @example sourceMode("json") // "javascript"
 */
export function sourceMode(extension: string): SourceMode {
  const ext = extension.toLowerCase().replace(/^\./, "");
  if (ext === "js" || ext === "json") return "javascript";
  if (ext === "css") return "css";
  if (ext === "php") return "php";
  return "html";
}

export interface Indentation {
  /** What one indentation level inserts. */
  unit: string;
  /** The width a tab is shown at. */
  tabSize: number;
}

export const TAB_SIZE = 4;
export const DEFAULT_INDENT = 2;

/**
 * @example detectIndentation("a {\n    b: c;\n}") // { unit: "    ", tabSize: 4 }
 */
export function detectIndentation(source: string): Indentation {
  let tabs = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of source.split(/\r?\n/).slice(0, 2000)) {
    if (line.trim() === "") continue;
    if (line.startsWith("\t")) {
      tabs++;
      continue;
    }
    const spaces = line.length - line.trimStart().length;
    const step = Math.abs(spaces - previous);
    if (step >= 2 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = spaces;
  }
  const [best] = [...steps.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  if (tabs > (best?.[1] ?? 0)) return { unit: "\t", tabSize: TAB_SIZE };
  return { unit: " ".repeat(best?.[0] ?? DEFAULT_INDENT), tabSize: TAB_SIZE };
}
