import { useEffect, useRef, useState } from "react";
import type { EditorView } from "@codemirror/view";
import type { CodeEditorMode } from "./code-editor.client";

/**
 * A code editor (CodeMirror 6, loaded when first shown) of the given height, 200 px by default
 * (spec), with the spec's modes and ruler. Text files dropped on it (type empty or `text/…`,
 * spec) replace its text; other drops are refused with a shake.
 *
 * @example <CodeEditor value={source} mode="css" label={t("code.source")} onChange={setSource} />
 */
export function CodeEditor({ value, mode, label, onChange, height = 200, wrap = false, indent }: {
  value: string;
  mode: CodeEditorMode;
  label: string;
  onChange(value: string): void;
  /** A number of pixels, or any CSS height (the source editor fills its screen). */
  height?: number | string;
  wrap?: boolean;
  indent?: { unit: string; tabSize: number };
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  const latest = useRef(value);
  const [shaking, setShaking] = useState(false);
  const indentRef = useRef(indent);
  const indentKey = indent ? `${indent.unit}|${indent.tabSize}` : "";
  useEffect(() => {
    changed.current = onChange;
    indentRef.current = indent;
  });

  // A new editor per mode: the language is part of its state. It starts from the value of that
  // moment; later values come from the editor itself, or are pushed into it below.
  useEffect(() => {
    let cancelled = false;
    const element = host.current;
    void import("./code-editor.client").then(({ createCodeEditor }) => {
      if (cancelled || !element) return;
      view.current = createCodeEditor(element, { value: latest.current, mode, label, wrap, indent: indentRef.current, onChange: (next) => changed.current(next) });
    });
    return () => {
      cancelled = true;
      view.current?.destroy();
      view.current = null;
    };
  }, [mode, label, wrap, indentKey]);

  useEffect(() => {
    latest.current = value;
    const current = view.current;
    if (current && current.state.doc.toString() !== value) {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <div className={`code-editor${shaking ? " form--shake" : ""}`} data-testid="code-editor" onAnimationEnd={() => setShaking(false)}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        const file = event.dataTransfer.files[0];
        if (!file) return;
        event.preventDefault();
        if (file.type !== "" && !file.type.startsWith("text/")) {
          setShaking(true);
          return;
        }
        void file.text().then((text) => changed.current(text));
      }}>
      <div ref={host} className="code-editor__host" style={{ height }} />
    </div>
  );
}
