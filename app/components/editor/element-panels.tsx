import { useMemo } from "react";
import type { PanelKind, ParentMessage } from "~/editor/protocol";
import type { EditorSite } from "~/editor/upload-image";
import type { BackgroundValues } from "~/lib/regions/css-style";
import { AnchorPanel } from "./anchor-panel";
import { BackgroundPanel } from "./background-panel";
import { BlocksPanel } from "./blocks-panel";
import { CodePanel } from "./code-panel";
import { GalleryPanel } from "./gallery-panel";
import { ImagePanel } from "./image-panel";
import { LinkPanel } from "./link-panel";
import { VideoPanel } from "./video-panel";

/** A panel the frame asked for: for an element (`target`) or, with target "", for a new one. */
export interface PanelRequest {
  panel: PanelKind;
  target: string;
  values: Record<string, string | boolean | null>;
}

const text = (value: string | boolean | null | undefined) => (typeof value === "string" ? value : "");

/**
 * The panels of the page's elements (spec, "Side panels"): each opened by the frame for an element
 * (double-click, or a toolbar button for a new one) and writing its result back through the frame
 * protocol, as an `applyPanel` to that element or an `insert` of a new one, so undo, the dirty
 * state and drafts see it like typing.
 */
export function ElementPanels({ request, site, send, onClose }: {
  request: PanelRequest | null;
  site: EditorSite;
  send(message: ParentMessage): void;
  onClose(): void;
}) {
  const kind = request?.panel ?? null;
  const isNew = request?.target === "";
  const values = request?.values;
  const write = (panel: PanelKind, result: Record<string, string | boolean | null>) => {
    if (!request) return;
    if (request.target === "") send({ type: "insert", panel, values: result });
    else send({ type: "applyPanel", panel, target: request.target, values: result });
    onClose();
  };
  // Each panel's starting values, made once per request so a panel starts afresh only when asked.
  const initial = useMemo(() => ({
    link: { href: text(values?.href), title: text(values?.title), target: text(values?.target), rel: text(values?.rel) },
    anchors: text(values?.anchors).split(" ").filter(Boolean),
    image: { src: text(values?.src), alt: text(values?.alt) },
    anchor: { id: text(values?.id) },
    background: { backgroundImage: text(values?.backgroundImage), backgroundColor: text(values?.backgroundColor), backgroundSize: text(values?.backgroundSize), backgroundRepeat: text(values?.backgroundRepeat) } satisfies BackgroundValues,
    code: { language: text(values?.language), source: text(values?.source) },
    embed: { url: text(values?.url), html: text(values?.html) },
    gallery: values ?? {},
  }), [values]);

  return (
    <>
      <LinkPanel open={kind === "link"} initial={initial.link} isNew={isNew} anchors={initial.anchors} onClose={onClose}
        onRemove={() => {
          send({ type: "command", command: "unlink" });
          onClose();
        }}
        onApply={(link) => {
          if (isNew) {
            send({ type: "link", ...link });
            onClose();
          } else write("link", { ...link });
        }} />
      <ImagePanel open={kind === "image"} initial={initial.image} isNew={isNew} uploads={site} onClose={onClose} onApply={(image) => write("image", { ...image })} />
      <AnchorPanel open={kind === "anchor"} initial={initial.anchor} isNew={isNew} onClose={onClose}
        onApply={(anchor) => write("anchor", anchor)} onRemove={() => write("anchor", { id: "" })} />
      <BackgroundPanel open={kind === "background"} initial={initial.background} uploads={site} onClose={onClose} onApply={(background) => write("background", { ...background })} />
      <CodePanel open={kind === "code"} initial={initial.code} onClose={onClose} onApply={(code) => write("code", { ...code })} />
      <VideoPanel open={kind === "embed"} initial={initial.embed} onClose={onClose} onApply={(embed) => write("embed", { ...embed })} />
      <GalleryPanel open={kind === "gallery"} initial={initial.gallery} isNew={isNew} site={site} onClose={onClose} onApply={(gallery) => write("gallery", gallery)} />
      <BlocksPanel open={kind === "block"} siteId={site.siteId} onClose={onClose} onInsert={(block) => write("block", { name: block.name, source: block.source })} />
    </>
  );
}
