import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { failureCode } from "~/lib/api-client";
import { isImageFile } from "~/editor/upload-image";
import { useNotifications } from "~/components/notifications";

/**
 * Where image files are dropped or chosen (spec: drops accept only `image/` files; an image input
 * that is given anything else shakes). Each accepted file goes to `onFiles`; while it works the
 * zone says so. Keyboard: the zone's button opens the file chooser.
 *
 * @example <ImageDrop label={t("image.drop")} multiple={false} onFiles={(files) => upload(files[0])} />
 */
export function ImageDrop({ label, multiple, onFiles, busyLabel }: { label: string; multiple: boolean; onFiles(files: File[]): Promise<void>; busyLabel: string }) {
  const { t } = useTranslation("editor");
  const { notifyError } = useNotifications();
  const [shakes, setShakes] = useState(0);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const inputId = useId();

  const take = async (list: FileList | null) => {
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    if (!files.every(isImageFile)) {
      setShakes((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      await onFiles(multiple ? files : files.slice(0, 1));
    } catch (error) {
      notifyError(failureCode(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div key={shakes} data-testid="image-drop"
      className={`image-drop${over ? " image-drop--over" : ""}${shakes ? " form--shake" : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        void take(event.dataTransfer.files);
      }}>
      <p>{busy ? busyLabel : label}</p>
      <label className="button button--small" htmlFor={inputId}>{t("gallery.add")}…</label>
      <input id={inputId} className="visually-hidden" type="file" accept="image/*" multiple={multiple} disabled={busy}
        aria-label={label} onChange={(event) => {
          void take(event.target.files);
          event.target.value = "";
        }} />
      {shakes > 0 && <p className="field__error" role="alert">{t("image.onlyImages")}</p>}
    </div>
  );
}
