import { useId } from "react";
import { useTranslation } from "react-i18next";
import { type EditorSite, previewUrl, uploadImage } from "~/editor/upload-image";
import { ImageDrop } from "./image-drop";
import { PanelForm, usePanelValues } from "./panel-form";

export interface ImageValues {
  src: string;
  alt: string;
}

/**
 * The Image panel (spec, "Image submit"): src and alt; an empty URL deletes the image; a dropped
 * image file is uploaded to the upload folder and used by its path relative to the page.
 */
export function ImagePanel({ open, initial, isNew, uploads, onApply, onClose }: {
  open: boolean;
  initial: ImageValues;
  isNew: boolean;
  uploads: EditorSite;
  onApply(values: ImageValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(initial, open);
  const srcHint = useId();
  const altHint = useId();
  const preview = previewUrl(uploads, values.src);
  return (
    <PanelForm open={open} title={t("image.title")} size="sm" onClose={onClose} canSubmit={!isNew || values.src.trim() !== ""}
      onSubmit={() => onApply({ src: values.src.trim(), alt: values.alt })}>
      <label className="field">
        <span>{t("image.src")}</span>
        <input type="text" inputMode="url" value={values.src} data-autofocus={isNew || undefined} onChange={(e) => setValues((v) => ({ ...v, src: e.target.value }))} aria-describedby={srcHint} />
        {!isNew && <small id={srcHint} className="field__hint">{t("image.srcHint")}</small>}
      </label>
      <ImageDrop label={t("image.drop")} busyLabel={t("image.uploading")} multiple={false}
        onFiles={async ([file]) => {
          const src = await uploadImage(uploads, file);
          setValues((v) => ({ ...v, src }));
        }} />
      <label className="field">
        <span>{t("image.alt")}</span>
        <input type="text" value={values.alt} data-autofocus={!isNew || undefined} onChange={(e) => setValues((v) => ({ ...v, alt: e.target.value }))} aria-describedby={altHint} />
        <small id={altHint} className="field__hint">{t("image.altHint")}</small>
      </label>
      {preview && (
        <figure className="image-panel__preview">
          <img src={preview} alt={values.alt} referrerPolicy="no-referrer" />
          <figcaption className="visually-hidden">{t("image.preview")}</figcaption>
        </figure>
      )}
    </PanelForm>
  );
}
