import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatColor, parseColor } from "~/editor/color";
import { type EditorSite, previewUrl, uploadImage } from "~/editor/upload-image";
import type { BackgroundValues } from "~/lib/regions/css-style";
import { ImageDrop } from "./image-drop";
import { PanelForm, usePanelValues } from "./panel-form";

/** The spec's options. */
export const BACKGROUND_SIZES = ["cover", "contain", "100%", "75%", "50%", "25%"] as const;
export const BACKGROUND_REPEATS = ["no-repeat", "repeat"] as const;

/**
 * The Background panel (EDITING-MODEL.md, background regions): image, size, repeat and a colour
 * with alpha, written to the element's inline style only.
 */
export function BackgroundPanel({ open, initial, uploads, onApply, onClose }: {
  open: boolean;
  initial: BackgroundValues;
  uploads: EditorSite;
  onApply(values: BackgroundValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(initial, open);
  const imageHint = useId();
  const color = parseColor(values.backgroundColor);
  const set = (key: keyof BackgroundValues, value: string) => setValues((v) => ({ ...v, [key]: value }));
  const preview = previewUrl(uploads, values.backgroundImage);
  const sizeOptions = BACKGROUND_SIZES.includes(values.backgroundSize as (typeof BACKGROUND_SIZES)[number]) || values.backgroundSize === ""
    ? BACKGROUND_SIZES : [values.backgroundSize, ...BACKGROUND_SIZES];
  return (
    <PanelForm open={open} title={t("background.title")} size="sm" onClose={onClose} onSubmit={() => onApply({ ...values, backgroundImage: values.backgroundImage.trim() })}>
      <label className="field">
        <span>{t("background.image")}</span>
        <input type="text" inputMode="url" value={values.backgroundImage} data-autofocus aria-describedby={imageHint} onChange={(e) => set("backgroundImage", e.target.value)} />
        <small id={imageHint} className="field__hint">{t("background.imageHint")}</small>
      </label>
      <ImageDrop label={t("image.drop")} busyLabel={t("image.uploading")} multiple={false}
        onFiles={async ([file]) => set("backgroundImage", await uploadImage(uploads, file))} />
      <div className="field-row">
        <label className="field field--grow">
          <span>{t("background.size")}</span>
          <select value={values.backgroundSize} onChange={(e) => set("backgroundSize", e.target.value)}>
            <option value="">—</option>
            {sizeOptions.map((size) => (
              <option key={size} value={size}>{(t(`background.sizes.${size}`, { defaultValue: size }))}</option>
            ))}
          </select>
        </label>
        <label className="field field--grow">
          <span>{t("background.repeat")}</span>
          <select value={values.backgroundRepeat} onChange={(e) => set("backgroundRepeat", e.target.value)}>
            <option value="">—</option>
            {BACKGROUND_REPEATS.map((repeat) => <option key={repeat} value={repeat}>{t(`background.repeats.${repeat}`)}</option>)}
          </select>
        </label>
      </div>
      <div className="field-row">
        <label className="field">
          <span>{t("background.color")}</span>
          <input type="color" value={color?.hex ?? "#ffffff"} onChange={(e) => set("backgroundColor", formatColor({ hex: e.target.value, alpha: color?.alpha ?? 1 }))} />
        </label>
        <label className="field field--grow">
          <span>{t("background.opacity")}</span>
          <input type="range" min={0} max={100} step={1} value={Math.round((color?.alpha ?? 1) * 100)} disabled={!color}
            onChange={(e) => color && set("backgroundColor", formatColor({ hex: color.hex, alpha: Number(e.target.value) / 100 }))} />
        </label>
        <button type="button" className="button button--small" disabled={values.backgroundColor === ""} onClick={() => set("backgroundColor", "")}>{t("background.noColor")}</button>
      </div>
      <div className="background-panel__preview" aria-label={t("background.preview")} role="img"
        style={{
          backgroundImage: preview ? `url("${preview.replace(/"/g, "%22")}")` : undefined,
          backgroundColor: values.backgroundColor || undefined,
          backgroundSize: values.backgroundSize || undefined,
          backgroundRepeat: values.backgroundRepeat || undefined,
        }} />
    </PanelForm>
  );
}
