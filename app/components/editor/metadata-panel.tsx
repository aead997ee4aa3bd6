import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { PageMetadata } from "~/lib/regions/types";
import { PanelForm, usePanelValues } from "./panel-form";

/**
 * The Metadata panel (EDITING-MODEL.md, "Metadata"): title, description, image, robots (noindex),
 * type and url, written into the page's head on publish. Applying hands back only what changed.
 */
export function MetadataPanel({ open, metadata, onApply, onClose }: {
  open: boolean;
  metadata: PageMetadata;
  onApply(changes: Partial<PageMetadata>): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const [values, setValues] = usePanelValues(metadata, open);
  const formId = useId();
  const text = (key: Exclude<keyof PageMetadata, "robots">) => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value })),
  });
  const submit = () => {
    const changes: Partial<PageMetadata> = {};
    for (const key of Object.keys(values) as (keyof PageMetadata)[]) {
      if (values[key] !== metadata[key]) Object.assign(changes, { [key]: values[key] });
    }
    onApply(changes);
  };
  return (
    <PanelForm open={open} title={t("metadata.title")} size="md" onClose={onClose} onSubmit={submit}>
      <label className="field">
        <span>{t("metadata.pageTitle")}</span>
        <input type="text" maxLength={1000} data-autofocus {...text("title")} />
      </label>
      <label className="field">
        <span>{t("metadata.description")}</span>
        <textarea rows={3} maxLength={5000} {...text("description")} />
      </label>
      <label className="field">
        <span>{t("metadata.image")}</span>
        <input type="text" inputMode="url" aria-describedby={`${formId}-image`} {...text("image")} />
        <small id={`${formId}-image`} className="field__hint">{t("metadata.imageHint")}</small>
      </label>
      <label className="field field--checkbox">
        <input type="checkbox" checked={values.robots} onChange={(e) => setValues((v) => ({ ...v, robots: e.target.checked }))} />
        <span>{t("metadata.robots")}</span>
      </label>
      <label className="field">
        <span>{t("metadata.type")}</span>
        <input type="text" maxLength={100} {...text("type")} />
      </label>
      <label className="field">
        <span>{t("metadata.url")}</span>
        <input type="text" inputMode="url" aria-describedby={`${formId}-url`} {...text("url")} />
        <small id={`${formId}-url`} className="field__hint">{t("metadata.urlHint")}</small>
      </label>
    </PanelForm>
  );
}
