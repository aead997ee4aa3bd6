import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { ErrorPage } from "~/components/error-page";
import { NotificationsProvider } from "~/components/notifications";
import { actorMiddleware } from "~/middleware/actor";
import { getLocale, i18nextMiddleware } from "~/middleware/i18next";
import { getSessionView } from "~/services/session-view.server";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import "./app.css";

export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware, actorMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = requireRouteContext(context);
  const session = await runOperation(() => getSessionView(ctx));
  return data({ locale: getLocale(context), session });
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The root loader's data from anywhere in the tree (undefined while an error page renders). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { i18n } = useTranslation();
  const root = useRootData();
  const favicon = root?.session.metadata.favicon ?? "/favicon.svg";
  // Marks the document as interactive: tests (and only tests) wait for it before typing, since
  // text typed into server-rendered fields while hydration runs can be overwritten.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang={i18n.language} dir={i18n.dir(i18n.language)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href={favicon} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Files dropped outside a drop zone would make the browser leave the app and lose the user's work. */
function useSuppressWindowDrops() {
  useEffect(() => {
    const prevent = (event: DragEvent) => {
      if (!event.defaultPrevented) event.preventDefault();
    };
    window.addEventListener("dragover", prevent);
    window.addEventListener("drop", prevent);
    return () => {
      window.removeEventListener("dragover", prevent);
      window.removeEventListener("drop", prevent);
    };
  }, []);
}

export default function App({ loaderData: { locale } }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale, i18n]);
  useSuppressWindowDrops();
  return (
    <NotificationsProvider>
      <Outlet />
    </NotificationsProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage status={status} />;
}
