import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { type PanelSize, SidePanel } from "./side-panel";

/**
 * A panel's working copy of its values: starts from `initial` each time the panel opens, and again
 * when it is given another `initial` while open. Closing without applying forgets the edits.
 *
 * @example const [values, setValues] = usePanelValues(initial, open);
 */
export function usePanelValues<T>(initial: T, open: boolean): [T, React.Dispatch<React.SetStateAction<T>>] {
  const [values, setValues] = useState(initial);
  const [shown, setShown] = useState<{ initial: T; open: boolean }>({ initial, open });
  if (shown.initial !== initial || shown.open !== open) {
    setShown({ initial, open });
    if (open) setValues(initial);
  }
  return [values, setValues];
}

/**
 * A side panel holding one form, with Cancel and Apply (the submit) in its footer and any other
 * actions before them. Enter in a field applies; Escape closes.
 *
 * @example <PanelForm open title={t("link.title")} size="sm" onClose={close} onSubmit={apply}>…fields…</PanelForm>
 */
export function PanelForm({ open, title, size, onClose, onSubmit, canSubmit = true, actions, closeOnOverlay, children }: {
  open: boolean;
  title: string;
  size?: PanelSize;
  onClose(): void;
  onSubmit(): void;
  canSubmit?: boolean;
  /** Buttons before Cancel and Apply (Remove Link, …). */
  actions?: React.ReactNode;
  closeOnOverlay?: boolean;
  children: React.ReactNode;
}) {
  const { t } = useTranslation("editor");
  const formId = useId();
  return (
    <SidePanel open={open} title={title} size={size} onClose={onClose} closeOnOverlay={closeOnOverlay}
      footer={
        <div className="button-row">
          {actions}
          <button type="button" className="button" onClick={onClose}>{t("panel.cancel")}</button>
          <button type="submit" form={formId} className="button button--primary" disabled={!canSubmit}>{t("panel.apply")}</button>
        </div>
      }>
      <form id={formId} className="form" onSubmit={(event) => {
        event.preventDefault();
        if (canSubmit) onSubmit();
      }}>
        {children}
      </form>
    </SidePanel>
  );
}
