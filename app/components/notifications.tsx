import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessageKey } from "~/lib/errors";

export interface Notification {
  id: number;
  kind: "error" | "success" | "warning";
  title: string;
  message: string;
}

interface NotificationsApi {
  notify(notification: Omit<Notification, "id">): void;
  /** The spec's error notification: titled 'Error' (or the dialog's title), message mapped from the code. */
  notifyError(code: unknown, title?: string): void;
}

const NotificationsContext = createContext<NotificationsApi | null>(null);
const HIDE_AFTER_MS = 6000;

export function NotificationsProvider({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation(["common", "notify", "errors"]);
  const [items, setItems] = useState<Notification[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setItems((all) => all.filter((n) => n.id !== id)), []);
  const notify = useCallback((n: Omit<Notification, "id">) => {
    const id = nextId.current++;
    setItems((all) => [...all, { ...n, id }]);
  }, []);
  const api = useMemo<NotificationsApi>(
    () => ({
      notify,
      notifyError: (code, title) =>
        notify({ kind: "error", title: title ?? t("notify:errorTitle"), message: t(errorMessageKey(code)) }),
    }),
    [notify, t],
  );

  return (
    <NotificationsContext.Provider value={api}>
      {children}
      <section className="notifications" aria-label={t("notifications.region")} aria-live="polite">
        {items.map((n) => (
          <NotificationItem key={n.id} notification={n} onDismiss={dismiss} />
        ))}
      </section>
    </NotificationsContext.Provider>
  );
}

function NotificationItem({ notification, onDismiss }: { notification: Notification; onDismiss(id: number): void }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(notification.id), HIDE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [notification.id, onDismiss]);
  return (
    <div className={`notification notification--${notification.kind}`} role={notification.kind === "error" ? "alert" : "status"}>
      <strong className="notification__title">{notification.title}</strong>
      <p className="notification__message">{notification.message}</p>
      <button type="button" className="notification__close" aria-label={t("notifications.dismiss")} onClick={() => onDismiss(notification.id)}>
        ×
      </button>
    </div>
  );
}

export function useNotifications(): NotificationsApi {
  const api = useContext(NotificationsContext);
  if (!api) throw new Error("useNotifications needs a NotificationsProvider");
  return api;
}
