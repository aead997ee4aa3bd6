import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiJson } from "~/lib/api-client";
import { isEmbedAddress } from "~/lib/names";
import { escapeText } from "~/lib/regions/entities";
import { PanelForm, usePanelValues } from "./panel-form";

export interface EmbedValues {
  /** The address the embed was made from ("" for pasted embed code). */
  url: string;
  /** The embed's HTML. */
  html: string;
}

/**
 * The Video panel (spec, "Video and paste"): an address starting with http(s) goes through the
 * embed lookup (`GET /utilities/oembed`); anything else is used as embed code; a failed lookup
 * inserts the raw text.
 */
export function VideoPanel({ open, initial, onApply, onClose }: { open: boolean; initial: EmbedValues; onApply(values: EmbedValues): void; onClose(): void }) {
  const { t } = useTranslation("editor");
  const start = useMemo(() => ({ input: initial.url || initial.html }), [initial]);
  const [values, setValues] = usePanelValues(start, open);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const hintId = useId();

  const submit = async () => {
    const input = values.input.trim();
    if (input === "") return;
    if (!isEmbedAddress(input)) return onApply({ url: "", html: input });
    setBusy(true);
    setFailed(false);
    try {
      const answer = await apiJson<{ oEmbed: { html: string } }>(`/utilities/oembed?url=${encodeURIComponent(input)}`);
      onApply({ url: input, html: answer.oEmbed.html });
    } catch {
      setFailed(true);
      onApply({ url: input, html: escapeText(input) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <PanelForm open={open} title={t("video.title")} size="md" onClose={onClose} canSubmit={!busy && values.input.trim() !== ""} onSubmit={() => void submit()}>
      <label className="field">
        <span>{t("video.input")}</span>
        <textarea rows={4} value={values.input} data-autofocus aria-describedby={hintId} onChange={(event) => setValues({ input: event.target.value })} />
        <small id={hintId} className="field__hint">{t("video.inputHint")}</small>
      </label>
      <p role="status" className="muted">{busy ? t("video.lookingUp") : failed ? t("video.fallback") : ""}</p>
    </PanelForm>
  );
}
