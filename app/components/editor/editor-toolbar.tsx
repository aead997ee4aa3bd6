import { useTranslation } from "react-i18next";
import type { SelectionState, TextCommand } from "~/editor/protocol";
import { ToolbarIcon } from "./toolbar-icons";

interface Tool {
  command: TextCommand;
  /** The button's accessible name and tooltip; the button shows an icon. */
  label: string;
  active?: boolean;
  enabled: boolean;
}

/**
 * The editor's toolbars (spec, "Toolbars"): text formatting, the table toolbar and the
 * repeatable-item toolbar, each a WAI-ARIA toolbar (one Tab stop, arrow keys move between
 * buttons). What is enabled follows the region type the caret is in (EDITING-MODEL.md): blocks take
 * everything, inline regions inline formatting and links, text regions nothing but undo.
 */
export function EditorToolbar({ selection, onCommand }: { selection: SelectionState | null; onCommand(command: TextCommand): void }) {
  const { t } = useTranslation("editor");
  const type = selection?.regionType ?? null;
  const formats = new Set(selection?.formats ?? []);
  const rich = type === "block" || type === "inline" || type === "link";
  const block = type === "block";
  const inTable = Boolean(selection?.inTable) && block;
  const tool = (command: TextCommand, enabled: boolean, active?: boolean): Tool => ({ command, label: t(`toolbar.${command === "editLink" ? "link" : command}`), enabled, active });

  const groups: { label: string; tools: Tool[] }[] = [
    {
      label: t("toolbar.text"),
      tools: [
        tool("undo", Boolean(selection?.canUndo)),
        tool("redo", Boolean(selection?.canRedo)),
        tool("bold", rich, formats.has("bold")),
        tool("italic", rich, formats.has("italic")),
        tool("underline", rich, formats.has("underline")),
        tool("strike", rich, formats.has("strike")),
        tool("editLink", rich && type !== "link", formats.has("link")),
        tool("unlink", rich && type !== "link" && formats.has("link")),
        tool("clearFormatting", rich),
        tool("orderedList", block, formats.has("ol")),
        tool("unorderedList", block, formats.has("ul")),
        tool("alignLeft", block, formats.has("left")),
        tool("alignCenter", block, formats.has("center")),
        tool("alignRight", block, formats.has("right")),
        tool("alignJustify", block, formats.has("justify")),
      ],
    },
    {
      label: t("toolbar.insert"),
      tools: [
        tool("newImage", block),
        tool("newGallery", block),
        tool("newEmbed", block),
        tool("newCode", block),
        tool("newAnchor", block || type === "inline"),
        tool("newBlock", block),
        tool("insertTable", block && !inTable),
      ],
    },
    {
      label: t("toolbar.table"),
      tools: [
        tool("addRow", inTable),
        tool("removeRow", inTable),
        tool("addColumn", inTable),
        tool("removeColumn", inTable),
      ],
    },
  ];
  if (selection?.inRepeatable) {
    groups.push({
      label: t("toolbar.item"),
      tools: [
        tool("duplicateItem", true),
        tool("moveItemUp", true),
        tool("moveItemDown", true),
        tool("removeItem", true),
      ],
    });
  }
  const headings = ["paragraph", "h1", "h2", "h3", "h4", "h5", "h6"] as const;
  const currentBlock = headings.find((name) => (name === "paragraph" ? formats.has("p") : formats.has(name))) ?? "";

  return (
    <div className="editor-toolbars">
      {groups.map((group, index) => {
        // The group's one Tab stop: its first enabled button (the style select when none is).
        const stop = group.tools.findIndex((item) => item.enabled);
        return (
        <div key={group.label} role="toolbar" aria-label={group.label} className="editor-toolbar" onKeyDown={moveFocus}>
          {group.tools.map((item, i) => (
            <button key={item.command} type="button" className="editor-toolbar__button" title={item.label} aria-label={item.label}
              aria-pressed={item.active === undefined ? undefined : item.active} disabled={!item.enabled}
              tabIndex={i === stop ? 0 : -1} onClick={() => onCommand(item.command)}>
              <ToolbarIcon command={item.command} />
            </button>
          ))}
          {index === 0 && (
            <label className="editor-toolbar__select">
              <span className="visually-hidden">{t("toolbar.blockFormat")}</span>
              <select value={currentBlock} disabled={!block} tabIndex={stop < 0 ? 0 : -1}
                onChange={(event) => event.target.value && onCommand(event.target.value as TextCommand)}>
                <option value="" disabled>{t("toolbar.blockFormat")}</option>
                {headings.map((name) => <option key={name} value={name}>{t(`toolbar.${name}`)}</option>)}
              </select>
            </label>
          )}
        </div>
        );
      })}
      {!selection?.regionType && <p className="editor-toolbars__hint muted">{t("toolbar.noSelection")}</p>}
    </div>
  );
}

/** Arrow keys, Home and End move between a toolbar's enabled controls (roving focus). */
function moveFocus(event: React.KeyboardEvent<HTMLDivElement>) {
  const keys = ["ArrowRight", "ArrowLeft", "Home", "End"];
  if (!keys.includes(event.key)) return;
  const controls = Array.from(event.currentTarget.querySelectorAll<HTMLElement>("button:not(:disabled), select:not(:disabled)"));
  if (controls.length === 0) return;
  const index = controls.indexOf(document.activeElement as HTMLElement);
  const next = event.key === "ArrowRight" ? (index + 1) % controls.length
    : event.key === "ArrowLeft" ? (index - 1 + controls.length) % controls.length
    : event.key === "Home" ? 0 : controls.length - 1;
  event.preventDefault();
  for (const control of controls) control.tabIndex = -1;
  controls[next].tabIndex = 0;
  controls[next].focus();
}
