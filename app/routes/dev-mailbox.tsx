import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/dev-mailbox";
import { readDevMailbox } from "~/services/email.server";
import { requireRouteContext, runOperation } from "~/services/route-context.server";

/**
 * The development mailbox: the mail the app has queued in its outbox, for local development and the
 * end-to-end tests. It needs no sign-in and shows reset and welcome links to anyone, so it exists
 * only where `DEV_MAILBOX = "true"` (wrangler.toml's local vars) and answers 404 everywhere else.
 * It must never be enabled in production.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("id");
  return runOperation(() => readDevMailbox(requireRouteContext(context), id));
}

/** Timestamps the same on server and client (no locale or time zone differences while hydrating). */
const formatTime = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** Plain text with its web addresses as links (React escapes the rest). */
function Linkified({ text }: { text: string }) {
  return (
    <>
      {text.split(URL_PATTERN).map((part, i) =>
        i % 2 === 1 ? <a key={i} href={part} rel="noreferrer">{part}</a> : part,
      )}
    </>
  );
}

export default function DevMailbox({ loaderData: { entries, selected } }: Route.ComponentProps) {
  const { t } = useTranslation("recovery");
  return (
    <main className="content mailbox">
      <title>{t("mailbox.title")}</title>
      <meta name="robots" content="noindex" />
      <h1>{t("mailbox.title")}</h1>
      <p className="callout">{t("mailbox.notice")}</p>
      {selected && (
        <article className="panel mailbox__message" aria-labelledby="mailbox-subject">
          <p><Link to="/dev/mailbox">{t("mailbox.back")}</Link></p>
          <h2 id="mailbox-subject">{selected.subject}</h2>
          <dl className="mailbox__meta">
            <dt>{t("mailbox.to")}</dt><dd>{selected.to}</dd>
            <dt>{t("mailbox.kind")}</dt><dd>{selected.kind}</dd>
            <dt>{t("mailbox.time")}</dt><dd>{formatTime(selected.createdAt)}</dd>
          </dl>
          <h3>{t("mailbox.text")}</h3>
          <pre className="mailbox__text"><Linkified text={selected.text} /></pre>
          {selected.html !== null && (
            <>
              <h3>{t("mailbox.html")}</h3>
              {/* sandbox="": no scripts, no same-origin access, no forms, no top navigation. */}
              <iframe className="mailbox__frame" title={t("mailbox.htmlFrame")} sandbox="" srcDoc={selected.html} />
            </>
          )}
        </article>
      )}
      {entries.length === 0 ? (
        <p className="muted">{t("mailbox.empty")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("mailbox.to")}</th>
              <th scope="col">{t("mailbox.subject")}</th>
              <th scope="col">{t("mailbox.time")}</th>
              <th scope="col">{t("mailbox.kind")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} aria-current={entry.id === selected?.id || undefined}>
                <td>{entry.to}</td>
                <td><Link to={`/dev/mailbox?id=${entry.id}`}>{entry.subject}</Link></td>
                <td>{formatTime(entry.createdAt)}</td>
                <td>{entry.kind}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
