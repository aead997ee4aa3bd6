import { useEffect, useId, useRef } from "react";

/**
 * Opens a `<dialog>` as a modal while `open` is true (`showModal()`: the rest of the page inert,
 * focus inside, Escape as `cancel`), closes it otherwise, and gives focus back to where it was.
 */
export function useModalDialog(ref: React.RefObject<HTMLDialogElement | null>, open: boolean): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open || dialog.open) return;
    const previous = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      previous?.focus?.();
    };
  }, [ref, open]);
}

/**
 * A modal dialog on the native `<dialog>` element: `showModal()` makes the rest of the page inert,
 * moves focus into the dialog (to the element marked `autoFocus`, else the first focusable one),
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
