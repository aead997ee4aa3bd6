import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ModalDialog } from "~/components/modal-dialog";

/**
 * Upgrade Required (spec, "Page editor"): for users who can manage billing, when a commercial site
 * cannot be published from the personal plan. Save Draft & Upgrade keeps the work and goes to
 * Billing; "Did we make a mistake? Let us know!" goes to Support.
 */
export function UpgradeDialog({ open, busy, onSaveAndUpgrade, onClose }: { open: boolean; busy: boolean; onSaveAndUpgrade(): void; onClose(): void }) {
  const { t } = useTranslation("editor");
  const textId = useId();
  return (
    <ModalDialog open={open} title={t("upgrade.title")} describedBy={textId} onClose={onClose}>
      <div id={textId}>
        <p>{t("upgrade.text")}</p>
        <p>{t("upgrade.draftText")}</p>
      </div>
      <p><Link to="/support">{t("upgrade.mistake")}</Link></p>
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={onClose}>{t("upgrade.cancel")}</button>
        <button type="button" className="button button--primary" data-autofocus disabled={busy} onClick={onSaveAndUpgrade}>{t("upgrade.saveAndUpgrade")}</button>
      </div>
    </ModalDialog>
  );
}
