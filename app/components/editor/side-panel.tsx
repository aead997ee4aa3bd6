import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useModalDialog } from "~/components/modal-dialog";

/** The spec's panel sizes. */
export type PanelSize = "xs" | "sm" | "md" | "lg" | "xl";

/**
 * A side panel of the editor (spec, "Side panels"): slides in from the right over an overlay,
 * modal (`<dialog>.showModal()`: focus moves in, Tab stays inside, the rest is inert), Escape
 * closes it, and a click on the overlay closes it unless `closeOnOverlay` is false (a panel with
 * unapplied work says so). Focus returns to where it was.
 *
 * @example <SidePanel open={open} title={t("link.title")} size="sm" onClose={close} footer={buttons}>…</SidePanel>
 */
export function SidePanel({ open, title, size = "md", onClose, closeOnOverlay = true, footer, children }: {
  open: boolean;
  title: string;
  size?: PanelSize;
  onClose(): void;
  closeOnOverlay?: boolean;
  footer?: React.ReactNode;
  children: React.ReactNode;
}) {
  const { t } = useTranslation("editor");
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useModalDialog(ref, open);

  return (
    <dialog ref={ref} className={`side-panel side-panel--${size}`} aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself, outside its content box, is a click on the overlay.
        if (event.target === ref.current && closeOnOverlay) onClose();
      }}>
      {open && (
        <div className="side-panel__box">
          <header className="side-panel__header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="side-panel__close" aria-label={t("panel.close")} onClick={onClose}>×</button>
          </header>
          <div className="side-panel__body">{children}</div>
          {footer && <footer className="side-panel__footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}
