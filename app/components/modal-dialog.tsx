import { useEffect, useId, useRef, useState } from "react";

/**
 * Opens a `<dialog>` as a modal while `open` is true (`showModal()`: the rest of the page inert,
 * focus inside, Escape as `cancel`), closes it otherwise, and gives focus back to where it was.
 * The content's element marked `data-autofocus` takes the focus, else its first control.
 */
export function useModalDialog(ref: React.RefObject<HTMLDialogElement | null>, open: boolean): void {
  // Where the focus was when the dialog was asked to open (noted while rendering, before any of
  // the content mounts).
  const [wasOpen, setWasOpen] = useState(open);
  const [returnFocus, setReturnFocus] = useState<HTMLElement | null>(null);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setReturnFocus(typeof document === "undefined" ? null : (document.activeElement as HTMLElement | null));
  }
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open || dialog.open) return;
    dialog.showModal();
    // showModal() focuses the first control; the content may name another (`data-autofocus`).
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => {
      if (dialog.open) dialog.close();
      returnFocus?.focus?.();
    };
  }, [ref, open, returnFocus]);
}

/**
 * A modal dialog on the native `<dialog>` element: `showModal()` makes the rest of the page inert,
 * moves focus into the dialog (to the element marked `data-autofocus`, else the first focusable one),
 * keeps Tab inside, closes on Escape (as `onClose`) and gives focus back to where it was.
 *
 * @example <ModalDialog open={open} title={t("title")} onClose={() => setOpen(false)}>…</ModalDialog>
 */
export function ModalDialog({ open, title, onClose, children, className, describedBy }: {
  open: boolean;
  title: string;
  onClose(): void;
  children: React.ReactNode;
  className?: string;
  describedBy?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useModalDialog(ref, open);

  return (
    <dialog ref={ref} className={`modal${className ? ` ${className}` : ""}`} aria-labelledby={titleId} aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}>
      {open && (
        <>
          <h2 id={titleId} className="modal__title">{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}
