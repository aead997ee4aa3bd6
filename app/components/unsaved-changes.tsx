import { useCallback, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker, useNavigation, type BlockerFunction } from "react-router";
import { ModalDialog } from "./modal-dialog";

/**
 * Clean-state tracking for a form (spec section 4, Forms): while `dirty`, leaving the page asks
 * 'Your changes haven't been saved. Are you sure you want to continue?' (Continue / Cancel), and
 * closing the tab asks the browser's own question. Call `allowLeave()` just before a submission so
 * saving the form (and the redirect after it) is never blocked.
 *
 * @example const unsaved = useUnsavedChanges(dirty); … <form onSubmit={() => unsaved.allowLeave()}> … {unsaved.dialog}
 */
export function useUnsavedChanges(dirty: boolean) {
  const { t } = useTranslation("notify");
  const bypass = useRef(false);
  const navigation = useNavigation();
  const textId = useId();
  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) =>
        dirty && !bypass.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
      [dirty],
    ),
  );

  useEffect(() => {
    if (navigation.state === "idle") bypass.current = false;
  }, [navigation.state]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  const dialog = (
    <ModalDialog open={blocker.state === "blocked"} title={t("unsavedChanges.title")} describedBy={textId} onClose={() => blocker.reset?.()}>
      <p id={textId}>{t("unsavedChanges.text")}</p>
      <div className="button-row modal__actions">
        <button type="button" className="button" data-autofocus onClick={() => blocker.reset?.()}>{t("unsavedChanges.cancel")}</button>
        <button type="button" className="button button--primary" onClick={() => blocker.proceed?.()}>{t("unsavedChanges.continue")}</button>
      </div>
    </ModalDialog>
  );
  return { dialog, allowLeave: () => { bypass.current = true; } };
}
