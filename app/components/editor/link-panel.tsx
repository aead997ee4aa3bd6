import { useId } from "react";
import { useTranslation } from "react-i18next";
import { PanelForm, usePanelValues } from "./panel-form";

export interface LinkValues {
  href: string;
  title: string;
  target: string;
  rel: string;
}

/**
 * The Link panel: href, title, target and rel of the link at the caret (or of a new one around the
 * selection), and the page's anchors as `#anchor`.
 */
export function LinkPanel({ open, initial, isNew, anchors, onApply, onRemove, onClose }: {
  open: boolean;
  initial: LinkValues;
  isNew: boolean;
  anchors: string[];
  onApply(values: LinkValues): void;
  onRemove(): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(initial, open);
  const hintId = useId();
  const set = (key: keyof LinkValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));
  return (
    <PanelForm open={open} title={t("link.title")} size="sm" onClose={onClose} canSubmit={values.href.trim() !== ""}
      onSubmit={() => onApply({ ...values, href: values.href.trim() })}
      actions={!isNew && <button type="button" className="button button--danger" onClick={onRemove}>{t("link.remove")}</button>}>
      <label className="field">
        <span>{t("link.href")}</span>
        <input type="text" inputMode="url" value={values.href} onChange={set("href")} required data-autofocus aria-describedby={hintId} />
        <small id={hintId} className="field__hint">{t("link.hrefHint")}</small>
      </label>
      {anchors.length > 0 && (
        <label className="field">
          <span>{t("link.anchors")}</span>
          <select value={values.href.startsWith("#") ? values.href : ""} onChange={(event) => event.target.value && setValues((v) => ({ ...v, href: event.target.value }))}>
            <option value="">—</option>
            {anchors.map((anchor) => <option key={anchor} value={`#${anchor}`}>#{anchor}</option>)}
          </select>
        </label>
      )}
      <label className="field">
        <span>{t("link.linkTitle")}</span>
        <input type="text" value={values.title} onChange={set("title")} />
      </label>
      <label className="field">
        <span>{t("link.target")}</span>
        <select value={values.target === "_blank" ? "_blank" : ""} onChange={(event) => {
          const target = event.target.value;
          setValues((v) => ({ ...v, target, rel: target === "_blank" && v.rel.trim() === "" ? "noopener" : v.rel }));
        }}>
          <option value="">{t("link.targetSame")}</option>
          <option value="_blank">{t("link.targetNew")}</option>
        </select>
      </label>
      <label className="field">
        <span>{t("link.rel")}</span>
        <input type="text" value={values.rel} onChange={set("rel")} />
      </label>
    </PanelForm>
  );
}
