/**
 * CodeMirror 6, loaded only when a code editor is shown (it is most of the weight of a code
 * panel). The spec's code editor: modes none, css, html, javascript and php; a ruler at column 120.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { css } from "@codemirror/lang-css";
import { html } from "@codemirror/lang-html";
import { javascript } from "@codemirror/lang-javascript";
import { php } from "@codemirror/lang-php";
import { xml } from "@codemirror/lang-xml";
import { bracketMatching, defaultHighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";

export type CodeEditorMode = "css" | "javascript" | "html" | "xml" | "php" | "plain";

const languages: Record<CodeEditorMode, () => Extension> = {
  css: () => css(),
  javascript: () => javascript(),
  html: () => html(),
  xml: () => xml(),
  php: () => php(),
  plain: () => [],
};

/** A thin vertical line at column 120 (the spec's ruler), behind the text. */
const ruler = EditorView.theme({
  ".cm-content": {
    backgroundImage: "linear-gradient(90deg, transparent calc(120ch + 6px), rgba(0, 0, 0, 0.15) calc(120ch + 6px), rgba(0, 0, 0, 0.15) calc(120ch + 7px), transparent calc(120ch + 7px))",
  },
});

export interface CodeEditorOptions {
  value: string;
  mode: CodeEditorMode;
  label: string;
  onChange(value: string): void;
  /** Long lines wrap (the source editor's preference); default off. */
  wrap?: boolean;
  /** What one indentation level inserts (default two spaces) and how wide a tab is shown (default 4). */
  indent?: { unit: string; tabSize: number };
}

/**
 * @example const view = createCodeEditor(host, { value: "a {}", mode: "css", label: "Code", onChange: setSource });
 */
export function createCodeEditor(parent: HTMLElement, options: CodeEditorOptions): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: options.value,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        // Tab indents; Escape then Tab leaves the editor (CodeMirror's own rule for indentWithTab).
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        languages[options.mode](),
        ruler,
        indentUnit.of(options.indent?.unit ?? "  "),
        EditorState.tabSize.of(options.indent?.tabSize ?? 4),
        options.wrap ? EditorView.lineWrapping : [],
        EditorView.contentAttributes.of({ "aria-label": options.label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
}
