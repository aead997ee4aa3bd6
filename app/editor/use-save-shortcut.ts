import { useEffect, useRef } from "react";

/**
 * The editors' keyboard shortcuts (spec): Ctrl/Cmd+S saves; Ctrl/Cmd+Shift+S publishes where there
 * is a publish, else saves too. The browser's own "save page" is kept from opening.
 *
 * @example useSaveShortcut(() => void save(), () => void startPublish());
 */
export function useSaveShortcut(onSave: () => void, onPublish?: () => void): void {
  const handlers = useRef({ onSave, onPublish });
  useEffect(() => {
    handlers.current = { onSave, onPublish };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "s") return;
      event.preventDefault();
      const { onSave: save, onPublish: publish } = handlers.current;
      if (event.shiftKey && publish) publish();
      else save();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
