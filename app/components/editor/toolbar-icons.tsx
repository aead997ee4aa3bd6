import type { TextCommand } from "~/editor/protocol";

/**
 * The toolbar's icons: small inline SVGs (no icon font, no emoji, so every machine draws them the
 * same), 20 × 20, stroked in the current colour. Letters (B, I, U, S) stay text.
 */
const PATHS: Partial<Record<TextCommand, string>> = {
  undo: "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
  redo: "m15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13",
  editLink: "M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7",
  unlink: "M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7M3 3l18 18",
  clearFormatting: "M4 7V4h16v3M9 20h6M12 4v16M3 21 21 3",
  orderedList: "M10 6h11M10 12h11M10 18h11M4 6h1v4M4 10h2M6 18H4c0-1 2-2 2-3s-1-1.5-2-1",
  unorderedList: "M9 6h12M9 12h12M9 18h12M4 6h.01M4 12h.01M4 18h.01",
  alignLeft: "M3 6h18M3 10h12M3 14h18M3 18h12",
  alignCenter: "M3 6h18M6 10h12M3 14h18M6 18h12",
  alignRight: "M3 6h18M9 10h12M3 14h18M9 18h12",
  alignJustify: "M3 6h18M3 10h18M3 14h18M3 18h18",
  insertTable: "M3 5h18v14H3zM3 10h18M3 15h18M9 5v14M15 5v14",
  addRow: "M3 4h18v10H3zM3 9h18M12 17v5M9.5 19.5h5",
  removeRow: "M3 4h18v10H3zM3 9h18M9.5 19.5h5",
  addColumn: "M4 3h10v18H4zM9 3v18M17 12h5M19.5 9.5v5",
  removeColumn: "M4 3h10v18H4zM9 3v18M17 12h5",
  newImage: "M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15 9.5a1.5 1.5 0 1 0 0-.01",
  newGallery: "M3 3h8v8H3zM13 3h8v8h-8zM3 13h8v8H3zM13 13h8v8h-8z",
  newEmbed: "M3 5h18v14H3zM10 9v6l5-3z",
  newCode: "m8 8-5 4 5 4M16 8l5 4-5 4M14 5l-4 14",
  newAnchor: "M12 8V21M5 12H2a10 10 0 0 0 20 0h-3M12 8a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5",
  newBlock: "M12 2 3 7l9 5 9-5zM3 12l9 5 9-5M3 17l9 5 9-5",
  duplicateItem: "M8 8h12v12H8zM4 16V4h12",
  moveItemUp: "M12 19V5M5 12l7-7 7 7",
  moveItemDown: "M12 5v14M19 12l-7 7-7-7",
  removeItem: "M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14",
};

const LETTERS: Partial<Record<TextCommand, string>> = { bold: "B", italic: "I", underline: "U", strike: "S" };

export function ToolbarIcon({ command }: { command: TextCommand }) {
  const letter = LETTERS[command];
  if (letter) return <span className={`toolbar-letter toolbar-letter--${command}`}>{letter}</span>;
  const path = PATHS[command];
  if (!path) return null;
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" focusable="false">
      <path d={path} />
    </svg>
  );
}
