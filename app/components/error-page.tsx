import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";

/** The spec's error page by status: 404 Not Found, 410 Out of Service, anything else Server Error. */
export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const [title, text] =
    status === 404
      ? [t("errorPage.notFound"), t("errorPage.notFoundText")]
      : status === 410
        ? [t("errorPage.outOfService"), t("errorPage.outOfServiceText")]
        : [t("errorPage.serverError"), t("errorPage.serverErrorText")];
  return (
    <main className="error-page" data-status={status}>
      <title>{appName ? `${title} | ${appName}` : title}</title>
      <p className="error-page__status">{status}</p>
      <h1>{title}</h1>
      <p>{text}</p>
      {/* A full reload: the error may have come from a broken client state. */}
      <a className="button button--primary" href="/">
        {t("errorPage.homepage")}
      </a>
    </main>
  );
}
