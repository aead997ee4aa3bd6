import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNotifications } from "~/components/notifications";
import { type GalleryImage, type GalleryOptions, readGallery, readGalleryOptions, writeGallery } from "~/editor/gallery";
import { type EditorSite, isPickableImage, previewUrl, uploadImage } from "~/editor/upload-image";
import { apiJson, failureCode } from "~/lib/api-client";
import { relativeUrl } from "~/lib/page-url";
import { ImageDrop } from "./image-drop";
import { PanelForm, usePanelValues } from "./panel-form";

/** What the frame reports of a gallery, and what the panel hands back (`data-cms-*` options as text). */
export type GalleryValues = Record<string, string | boolean | null>;

interface Draft {
  images: GalleryImage[];
  options: GalleryOptions;
}

function draftOf(values: GalleryValues): Draft {
  const container = typeof values.container === "string" ? values.container : "div";
  return { images: readGallery(typeof values.content === "string" ? values.content : ""), options: readGalleryOptions(values, container) };
}

/**
 * The Gallery panel: the images (description, caption, link) in a grid of 4 columns; added by URL
 * or dropped (images only, uploaded to the upload folder); the element (div, ol or ul), captions
 * and links on or off; thumbnails of the chosen size and resize made into the upload folder's
 * `thumbnails` folder. An existing gallery left with no images is deleted.
 */
export function GalleryPanel({ open, initial, isNew, site, onApply, onClose }: {
  open: boolean;
  initial: GalleryValues;
  isNew: boolean;
  site: EditorSite;
  onApply(values: GalleryValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation("editor");
  const { notifyError } = useNotifications();
  const container = typeof initial.container === "string" ? initial.container : "div";
  const start = useMemo(() => draftOf(initial), [initial]);
  const [draft, setDraft] = usePanelValues<Draft>(start, open);
  const [newUrl, setNewUrl] = useState("");
  const [urlRefused, setUrlRefused] = useState(false);
  const [making, setMaking] = useState(false);
  const addId = useId();
  const { images, options } = draft;
  const setImages = (update: (images: GalleryImage[]) => GalleryImage[]) => setDraft((d) => ({ ...d, images: update(d.images) }));
  const setOptions = (fields: Partial<GalleryOptions>) => setDraft((d) => ({ ...d, options: { ...d.options, ...fields } }));
  const edit = (index: number, fields: Partial<GalleryImage>) => setImages((all) => all.map((image, i) => (i === index ? { ...image, ...fields } : image)));
  const move = (index: number, by: number) =>
    setImages((all) => {
      const to = index + by;
      if (to < 0 || to >= all.length) return all;
      const next = [...all];
      [next[index], next[to]] = [next[to], next[index]];
      return next;
    });

  const addUrl = () => {
    const url = newUrl.trim();
    if (!url) return;
    if (!isPickableImage(url)) return setUrlRefused(true);
    setUrlRefused(false);
    setImages((all) => [...all, { src: url, description: "", caption: "", link: "" }]);
    setNewUrl("");
  };

  /**
   * Thumbnails of the site's own images (relative URLs: an image on another host has no file on
   * the site to make one from), put in place of the images; the full image stays one click away
   * when the images are linked.
   */
  const makeThumbnails = async () => {
    const local = [...new Set(images.map((image) => image.src).filter((src) => src !== "" && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)))];
    if (local.length === 0) return;
    setMaking(true);
    try {
      const { thumbnails } = await apiJson<{ thumbnails: { path: string; sourceUrl: string }[] }>(`/sites/${site.siteId}/files/thumbnails`, {
        method: "POST",
        body: { urls: local, path: site.pagePath, width: options.thumbnailWidth, height: options.thumbnailHeight, resize: options.thumbnailResize },
      });
      const made = new Map(thumbnails.map((thumbnail) => [thumbnail.sourceUrl, relativeUrl(site.pagePath, thumbnail.path)]));
      setImages((all) => all.map((image) => {
        const src = made.get(image.src);
        return !src || src === image.src ? image : { ...image, src, link: image.link || image.src };
      }));
    } catch (error) {
      notifyError(failureCode(error), t("gallery.thumbnails"));
    } finally {
      setMaking(false);
    }
  };

  const submit = () => onApply({
    content: writeGallery(images, options, container),
    element: container === "ul" || container === "ol" ? container : options.element,
    captions: String(options.captions),
    links: String(options.links),
    thumbnailWidth: String(options.thumbnailWidth),
    thumbnailHeight: String(options.thumbnailHeight),
    thumbnailResize: options.thumbnailResize,
  });

  return (
    <PanelForm open={open} title={t("gallery.title")} size="xl" onClose={onClose} closeOnOverlay={false} canSubmit={!making && (!isNew || images.length > 0)} onSubmit={submit}>
      <fieldset className="fieldset">
        <legend>{t("gallery.images")}</legend>
        {images.length === 0 ? (
          <p className="muted">{t("gallery.empty")}</p>
        ) : (
          <ol className="gallery-grid">
            {images.map((image, index) => {
              const preview = previewUrl(site, image.src);
              const name = image.src.split("/").pop() ?? image.src;
              return (
                <li key={index} className="gallery-grid__item" aria-label={t("gallery.imageLabel", { number: index + 1, name })} data-testid="gallery-image">
                  {preview && <img src={preview} alt="" referrerPolicy="no-referrer" className="gallery-grid__preview" />}
                  <label className="field">
                    <span>{t("gallery.description")}</span>
                    <input type="text" value={image.description} onChange={(e) => edit(index, { description: e.target.value })} />
                  </label>
                  {options.captions && (
                    <label className="field">
                      <span>{t("gallery.caption")}</span>
                      <input type="text" value={image.caption} onChange={(e) => edit(index, { caption: e.target.value })} />
                    </label>
                  )}
                  {options.links && (
                    <label className="field">
                      <span>{t("gallery.link")}</span>
                      <input type="text" inputMode="url" value={image.link} onChange={(e) => edit(index, { link: e.target.value })} />
                    </label>
                  )}
                  <div className="button-row">
                    <button type="button" className="button button--small" disabled={index === 0} aria-label={`${t("gallery.moveLeft")}: ${name}`} onClick={() => move(index, -1)}>←</button>
                    <button type="button" className="button button--small" disabled={index === images.length - 1} aria-label={`${t("gallery.moveRight")}: ${name}`} onClick={() => move(index, 1)}>→</button>
                    <button type="button" className="button button--small button--danger" onClick={() => setImages((all) => all.filter((_, i) => i !== index))}>{t("gallery.remove")}</button>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        <div className="field-row">
          <label className="field field--grow" htmlFor={addId}>
            <span>{t("gallery.addUrl")}</span>
            <input id={addId} type="text" inputMode="url" value={newUrl} data-autofocus aria-invalid={urlRefused || undefined}
              onChange={(e) => setNewUrl(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  addUrl();
                }
              }} />
            {urlRefused && <small className="field__error" role="alert">{t("gallery.onlyImages")}</small>}
          </label>
          <button type="button" className="button" onClick={addUrl}>{t("gallery.add")}</button>
        </div>
        <ImageDrop label={t("gallery.drop")} busyLabel={t("image.uploading")} multiple
          onFiles={async (files) => {
            const added: GalleryImage[] = [];
            for (const file of files) {
              if (!isPickableImage(file.name)) continue;
              added.push({ src: await uploadImage(site, file), description: "", caption: "", link: "" });
            }
            setImages((all) => [...all, ...added]);
          }} />
      </fieldset>
      <fieldset className="fieldset">
        <legend>{t("gallery.element")}</legend>
        <select aria-label={t("gallery.element")} value={container === "ul" || container === "ol" ? container : options.element} disabled={container === "ul" || container === "ol"}
          onChange={(e) => setOptions({ element: e.target.value as GalleryOptions["element"] })}>
          {(["div", "ul", "ol"] as const).map((element) => <option key={element} value={element}>{t(`gallery.elements.${element}`)}</option>)}
        </select>
        <label className="field--checkbox">
          <input type="checkbox" checked={options.captions} onChange={(e) => setOptions({ captions: e.target.checked })} />
          <span>{t("gallery.captions")}</span>
        </label>
        <label className="field--checkbox">
          <input type="checkbox" checked={options.links} onChange={(e) => setOptions({ links: e.target.checked })} />
          <span>{t("gallery.links")}</span>
        </label>
      </fieldset>
      <fieldset className="fieldset">
        <legend>{t("gallery.thumbnails")}</legend>
        <div className="field-row">
          <label className="field field--port">
            <span>{t("gallery.thumbnailWidth")}</span>
            <input type="number" min={16} max={2048} value={options.thumbnailWidth} onChange={(e) => setOptions({ thumbnailWidth: Number(e.target.value) })} />
          </label>
          <label className="field field--port">
            <span>{t("gallery.thumbnailHeight")}</span>
            <input type="number" min={16} max={2048} value={options.thumbnailHeight} onChange={(e) => setOptions({ thumbnailHeight: Number(e.target.value) })} />
          </label>
          <label className="field field--grow">
            <span>{t("gallery.thumbnailResize")}</span>
            <select value={options.thumbnailResize} onChange={(e) => setOptions({ thumbnailResize: e.target.value === "contain" ? "contain" : "cover" })}>
              <option value="cover">{t("gallery.resizes.cover")}</option>
              <option value="contain">{t("gallery.resizes.contain")}</option>
            </select>
          </label>
        </div>
        <button type="button" className="button" disabled={making || images.length === 0} onClick={() => void makeThumbnails()}>
          {making ? t("gallery.making") : t("gallery.makeThumbnails")}
        </button>
      </fieldset>
    </PanelForm>
  );
}
