import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import type { Route } from "./+types/authenticated";
import { Sidebar } from "~/components/sidebar";
import { UserMenu } from "~/components/user-menu";
import { authenticatedGuard } from "~/middleware/actor";
import { useRootData } from "~/root";

/** The app shell around every signed-in screen; the Authenticated guard of the spec. */
export const middleware: Route.MiddlewareFunction[] = [authenticatedGuard];

export default function AuthenticatedLayout() {
  const { t } = useTranslation();
  const session = useRootData()?.session;
  if (!session?.user) return null; // unreachable: the middleware redirected
  const { user, metadata } = session;
  return (
    <div className="shell">
      <a className="skip-link" href="#content">{t("skipToContent")}</a>
      {metadata.isSudo && (
        <div className="sudo-banner" role="status">{t("userMenu.sudoBanner", { name: user.name })}</div>
      )}
      <Sidebar user={user} metadata={metadata} />
      <div className="shell__main">
        <header className="topbar">
          <UserMenu user={user} isSudo={metadata.isSudo} />
        </header>
        <main id="content" className="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
