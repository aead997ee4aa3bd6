import { useId } from "react";
import { useTranslation } from "react-i18next";
import { normaliseAnchorName } from "~/lib/names";
import { PanelForm, usePanelValues } from "./panel-form";

/**
 * The Anchor panel: the anchor's name, normalised as it is typed (lowercase; anything but letters
 * and digits becomes a hyphen; hyphens collapse and end ones go). A new anchor's name defaults to
 * the first 5 words of the selection. An existing anchor can be removed.
 */
export function AnchorPanel({ open, initial, isNew, onApply, onRemove, onClose }: {
  open: boolean;
  initial: { id: string };
  isNew: boolean;
  onApply(values: { id: string }): void;
  onRemove(): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(initial, open);
  const hintId = useId();
  const name = normaliseAnchorName(values.id);
  return (
    <PanelForm open={open} title={t("anchor.title")} size="xs" onClose={onClose} canSubmit={name !== ""} onSubmit={() => onApply({ id: name })}
      actions={!isNew && <button type="button" className="button button--danger" onClick={onRemove}>{t("anchor.remove")}</button>}>
      <label className="field">
        <span>{t("anchor.name")}</span>
        <input type="text" value={values.id} data-autofocus required aria-describedby={hintId}
          onChange={(event) => setValues({ id: event.target.value })}
          onBlur={() => setValues({ id: name })} />
        <small id={hintId} className="field__hint">{t("anchor.nameHint", { name: name || "…" })}</small>
      </label>
    </PanelForm>
  );
}
