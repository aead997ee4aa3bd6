import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { SidePanel } from "./side-panel";

export interface ImageValues {
  src: string;
  alt: string;
}

/**
 * The Image panel (spec, "Image submit"): src and alt; an empty URL deletes the image. Picking from
 * the site's uploads and dropping a file come with the editor panels issue.
 */
export function ImagePanel({ open, initial, onApply, onClose }: {
  open: boolean;
  initial: ImageValues;
  onApply(values: ImageValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = useState(initial);
  const [shown, setShown] = useState(initial);
  if (shown !== initial) {
    setShown(initial);
    setValues(initial);
  }
  const formId = useId();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    onApply({ src: values.src.trim(), alt: values.alt });
  };
  const previewable = /^(https?:|data:image\/)/i.test(values.src.trim());
  return (
    <SidePanel open={open} title={t("image.title")} size="sm" onClose={onClose}
      footer={
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>{t("panel.cancel")}</button>
          <button type="submit" form={formId} className="button button--primary">{t("panel.apply")}</button>
        </div>
      }>
      <form id={formId} className="form" onSubmit={submit}>
        <label className="field">
          <span>{t("image.src")}</span>
          <input type="text" inputMode="url" value={values.src} onChange={(e) => setValues((v) => ({ ...v, src: e.target.value }))} aria-describedby={`${formId}-src`} />
          <small id={`${formId}-src`} className="field__hint">{t("image.srcHint")}</small>
        </label>
        <label className="field">
          <span>{t("image.alt")}</span>
          <input type="text" value={values.alt} autoFocus onChange={(e) => setValues((v) => ({ ...v, alt: e.target.value }))} aria-describedby={`${formId}-alt`} />
          <small id={`${formId}-alt`} className="field__hint">{t("image.altHint")}</small>
        </label>
        {previewable && (
          <figure className="image-panel__preview">
            <img src={values.src.trim()} alt={values.alt} referrerPolicy="no-referrer" />
            <figcaption className="visually-hidden">{t("image.preview")}</figcaption>
          </figure>
        )}
      </form>
    </SidePanel>
  );
}
