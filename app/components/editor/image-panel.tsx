import { useId } from "react";
import { useTranslation } from "react-i18next";
import { PanelForm, usePanelValues } from "./panel-form";

export interface ImageValues {
  src: string;
  alt: string;
}

/**
 * The Image panel (spec, "Image submit"): src and alt; an empty URL deletes the image.
 */
export function ImagePanel({ open, initial, onApply, onClose }: {
  open: boolean;
  initial: ImageValues;
  onApply(values: ImageValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(initial, open);
  const srcHint = useId();
  const altHint = useId();
  const previewable = /^(https?:|data:image\/)/i.test(values.src.trim());
  return (
    <PanelForm open={open} title={t("image.title")} size="sm" onClose={onClose} onSubmit={() => onApply({ src: values.src.trim(), alt: values.alt })}>
      <label className="field">
        <span>{t("image.src")}</span>
        <input type="text" inputMode="url" value={values.src} onChange={(e) => setValues((v) => ({ ...v, src: e.target.value }))} aria-describedby={srcHint} />
        <small id={srcHint} className="field__hint">{t("image.srcHint")}</small>
      </label>
      <label className="field">
        <span>{t("image.alt")}</span>
        <input type="text" value={values.alt} data-autofocus onChange={(e) => setValues((v) => ({ ...v, alt: e.target.value }))} aria-describedby={altHint} />
        <small id={altHint} className="field__hint">{t("image.altHint")}</small>
      </label>
      {previewable && (
        <figure className="image-panel__preview">
          <img src={values.src.trim()} alt={values.alt} referrerPolicy="no-referrer" />
          <figcaption className="visually-hidden">{t("image.preview")}</figcaption>
        </figure>
      )}
    </PanelForm>
  );
}
