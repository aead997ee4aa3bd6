import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "./avatar";
import { ModalDialog } from "./modal-dialog";

/** The spec's avatar crop: a square of 85% of the picture, at least 16 px, zoom in steps of 0.1, rotation in 90° steps. */
export const CROP_AREA = 0.85;
export const MIN_CROP_PX = 16;
export const ZOOM_STEP = 0.1;
export const MAX_ZOOM = 4;
export const ROTATE_STEP = 90;
/** The stored picture's largest side. */
const OUTPUT_PX = 512;
const VIEW_PX = 280;

export type AvatarChange = { kind: "keep" } | { kind: "remove" } | { kind: "upload"; blob: Blob; preview: string };

/**
 * The avatar control of the user forms: the current picture (uploaded, else Gravatar, else
 * initials), Choose Image (image files only, otherwise the control shakes), a square crop dialog
 * with zoom and rotation, and Use Gravatar to remove an uploaded picture. The cropped picture is a
 * PNG handed to the form, which uploads it on save.
 */
export function AvatarField({ user, change, onChange }: {
  user: { name: string; email: string; avatar: string | null };
  change: AvatarChange;
  onChange(change: AvatarChange): void;
}) {
  const { t } = useTranslation("users");
  const input = useRef<HTMLInputElement>(null);
  const [shake, setShake] = useState(0);
  const [source, setSource] = useState<HTMLImageElement | null>(null);
  const hintId = useId();

  const choose = (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      setShake((n) => n + 1);
      return;
    }
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      if (Math.min(image.naturalWidth, image.naturalHeight) * CROP_AREA < MIN_CROP_PX) {
        setShake((n) => n + 1);
        URL.revokeObjectURL(url);
        return;
      }
      setSource(image);
    };
    image.onerror = () => {
      setShake((n) => n + 1);
      URL.revokeObjectURL(url);
    };
    image.src = url;
  };

  const preview = change.kind === "upload" ? change.preview : change.kind === "remove" ? null : user.avatar;
  return (
    <div className={shake ? "avatar-field form--shake" : "avatar-field"} key={shake} data-testid="avatar-field">
      <Avatar user={{ ...user, avatar: preview }} size={96} />
      <div className="avatar-field__actions">
        <label className="button button--small avatar-field__choose">
          {t("avatar.choose")}
          <input ref={input} type="file" accept="image/*" className="visually-hidden" aria-describedby={hintId}
            onChange={(event) => choose(event.target.files?.[0])} />
        </label>
        {preview && (
          <button type="button" className="button button--small" onClick={() => onChange(user.avatar ? { kind: "remove" } : { kind: "keep" })}>
            {t("avatar.useGravatar")}
          </button>
        )}
        <small id={hintId} className="muted">{t("avatar.hint")}</small>
      </div>
      {source && (
        <CropDialog image={source} onCancel={() => setSource(null)}
          onDone={(blob) => {
            setSource(null);
            onChange({ kind: "upload", blob, preview: URL.createObjectURL(blob) });
          }} />
      )}
    </div>
  );
}

function CropDialog({ image, onCancel, onDone }: { image: HTMLImageElement; onCancel(): void; onDone(blob: Blob): void }) {
  const { t } = useTranslation("users");
  const canvas = useRef<HTMLCanvasElement>(null);
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);

  /** Draws the rotated picture, zoomed around its centre, into a square of `px` pixels that covers the crop. */
  const draw = (target: HTMLCanvasElement, px: number) => {
    const context = target.getContext("2d");
    if (!context) return;
    const turned = rotation % 180 !== 0;
    const width = turned ? image.naturalHeight : image.naturalWidth;
    const height = turned ? image.naturalWidth : image.naturalHeight;
    const crop = (Math.min(width, height) * CROP_AREA) / zoom; // the square's side in source pixels
    const scale = px / crop;
    context.clearRect(0, 0, px, px);
    context.save();
    context.translate(px / 2, px / 2);
    context.rotate((rotation * Math.PI) / 180);
    context.scale(scale, scale);
    context.drawImage(image, -image.naturalWidth / 2, -image.naturalHeight / 2);
    context.restore();
  };

  useEffect(() => {
    if (canvas.current) draw(canvas.current, VIEW_PX);
  });

  const finish = () => {
    const turned = rotation % 180 !== 0;
    const side = Math.min(turned ? image.naturalHeight : image.naturalWidth, turned ? image.naturalWidth : image.naturalHeight);
    const crop = (side * CROP_AREA) / zoom;
    const px = Math.max(MIN_CROP_PX, Math.min(OUTPUT_PX, Math.round(crop)));
    const output = document.createElement("canvas");
    output.width = px;
    output.height = px;
    draw(output, px);
    output.toBlob((blob) => blob && onDone(blob), "image/png");
  };

  const minZoom = 1;
  const maxZoom = Math.max(minZoom, Math.min(MAX_ZOOM, (Math.min(image.naturalWidth, image.naturalHeight) * CROP_AREA) / MIN_CROP_PX));
  return (
    <ModalDialog open title={t("avatar.cropTitle")} onClose={onCancel} className="modal--crop">
      <canvas ref={canvas} width={VIEW_PX} height={VIEW_PX} className="crop__canvas" role="img" aria-label={t("avatar.cropPreview")} />
      <label className="field">
        <span>{t("avatar.zoom")}</span>
        <input type="range" min={minZoom} max={maxZoom} step={ZOOM_STEP} value={zoom} onChange={(event) => setZoom(Number(event.target.value))} />
      </label>
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={() => setRotation((r) => (r + ROTATE_STEP) % 360)}>{t("avatar.rotate")}</button>
        <span className="modal__spacer" />
        <button type="button" className="button" onClick={onCancel}>{t("actions.cancel")}</button>
        <button type="button" className="button button--primary" data-autofocus onClick={finish}>{t("avatar.apply")}</button>
      </div>
    </ModalDialog>
  );
}
