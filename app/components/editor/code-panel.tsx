import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CodeEditor } from "~/components/code-editor";
import { codeMode } from "~/lib/names";
import { normaliseCodeLanguage } from "~/lib/regions/markers";
import { PanelForm, usePanelValues } from "./panel-form";

export interface CodeValues {
  language: string;
  source: string;
}

/**
 * The Code Block panel: the language (normalised like an anchor name; css, javascript/js,
 * html/xml and php are highlighted, anything else plain) and the code, in CodeMirror 6.
 */
export function CodePanel({ open, initial, onApply, onClose }: { open: boolean; initial: CodeValues; onApply(values: CodeValues): void; onClose(): void }) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(initial, open);
  const hintId = useId();
  const mode = codeMode(values.language);
  // XML is highlighted as HTML by name, but CodeMirror has its own mode for it.
  const editorMode = normaliseCodeLanguage(values.language) === "xml" ? "xml" : mode;
  return (
    <PanelForm open={open} title={t("code.title")} size="lg" onClose={onClose} closeOnOverlay={false}
      onSubmit={() => onApply({ language: normaliseCodeLanguage(values.language), source: values.source })}>
      <label className="field">
        <span>{t("code.language")}</span>
        <input type="text" value={values.language} data-autofocus aria-describedby={hintId}
          onChange={(event) => setValues((v) => ({ ...v, language: event.target.value }))}
          onBlur={() => setValues((v) => ({ ...v, language: normaliseCodeLanguage(v.language) }))} />
        <small id={hintId} className="field__hint">{t("code.languageHint")} {t("code.mode", { mode: t(`code.modes.${mode}`) })}</small>
      </label>
      <div className="field">
        <span>{t("code.source")}</span>
        {open && <CodeEditor value={values.source} mode={editorMode} label={t("code.source")}
          onChange={(source) => setValues((v) => ({ ...v, source }))} />}
        <small className="field__hint">{t("code.dropHint")}</small>
      </div>
    </PanelForm>
  );
}
