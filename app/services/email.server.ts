import { desc, eq, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "../../db/schema";
import { emailOutbox, type EmailOutboxMessage } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { Locale } from "~/lib/locale";
import type { EmailMessage } from "~/lib/schemas/recovery";
import { resources } from "~/locales";

/**
 * What queuing mail needs. A `ServiceContext` has it; so does the seed script, which has no
 * request. `locale` is the language of the request, used when the recipient's is not known.
 */
export interface MailContext {
  db: DrizzleD1Database<typeof schema>;
  env: { APP_ORIGIN: string };
  locale: Locale;
}

export interface OutgoingEmail {
  /** The account the mail belongs to (null for platform mail); scopes the outbox row. */
  accountId: string | null;
  to: string;
  /** e.g. "reset", "welcome". */
  kind: string;
  subject: string;
  text: string;
  html: string | null;
}

/**
 * Hands queued mail over for delivery. Sending for real is a later concern: the product has no
 * mail provider yet, and none is invented here. The one implementation below sends nothing, so
 * every message stays in the outbox (`sent_at` null) where the development mailbox (`/dev/mailbox`)
 * shows it. A real transport will send the row and set `sent_at`, `attempts` and `last_error`.
 */
export interface MailTransport {
  readonly name: string;
  deliver(message: EmailOutboxMessage): Promise<void>;
}

/** Leaves mail in the outbox for the development mailbox. The only transport so far. */
export const outboxOnlyTransport: MailTransport = {
  name: "outbox-only",
  async deliver() {
    // Intentionally nothing: the row in email_outbox is the mail.
  },
};

export function mailTransport(_env: MailContext["env"]): MailTransport {
  return outboxOnlyTransport;
}

/**
 * Queues one email in the outbox and hands it to the transport.
 *
 * @example await enqueueEmail(ctx, { accountId, to: user.email, kind: "reset", ...renderLinkEmail(ctx.locale, texts) });
 */
export async function enqueueEmail(ctx: MailContext, email: OutgoingEmail): Promise<EmailOutboxMessage> {
  const [row] = await ctx.db
    .insert(emailOutbox)
    .values({
      accountId: email.accountId,
      to: email.to,
      kind: email.kind,
      subject: email.subject,
      text: email.text,
      html: email.html,
      createdAt: new Date(),
    })
    .returning();
  await mailTransport(ctx.env).deliver(row);
  return row;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Plain text as HTML paragraphs: blank lines separate paragraphs, single line breaks stay. */
function paragraphs(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\r?\n/g, "<br>")}</p>`)
    .join("\n");
}

export interface LinkEmail extends EmailMessage {
  /** The absolute link the button opens. */
  url: string;
  /** A closing line of the template, e.g. how long the link lasts. */
  footer: string;
}

/** The template's fixed texts in a language. */
export function emailStrings(locale: Locale) {
  return resources[locale].recovery.email;
}

/**
 * A link email (reset, welcome) as subject, plain text and HTML. Every text is the caller's plain
 * text and is escaped here; the link must be absolute http(s).
 *
 * @example renderLinkEmail("de", { subject, intro, callToAction, outro, url, footer })
 */
export function renderLinkEmail(locale: Locale, email: LinkEmail): { subject: string; text: string; html: string } {
  const url = new URL(email.url);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("An email link must be http(s)");
  const href = escapeHtml(url.href);
  const { linkHint } = emailStrings(locale);
  const text = [email.intro, `${email.callToAction}:\n${url.href}`, email.outro, email.footer].filter((part) => part.trim() !== "").join("\n\n");
  const muted = "font-size:13px;color:#5b6270";
  const html = `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(email.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2430;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
${paragraphs(email.intro)}
<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#2952cc;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${escapeHtml(email.callToAction)}</a></p>
<p style="${muted}">${escapeHtml(linkHint)}<br><a href="${href}" style="color:#2952cc;word-break:break-all">${href}</a></p>
${paragraphs(email.outro)}
<p style="${muted}">${escapeHtml(email.footer)}</p>
</div>
</body>
</html>
`;
  return { subject: email.subject, text, html };
}

// ---------------------------------------------------------------------------------------------
// The development mailbox

const MAILBOX_LIMIT = 100;

/**
 * The development mailbox (`/dev/mailbox`) shows every queued email, reset and welcome links
 * included, without signing in. It exists only where `DEV_MAILBOX` is "true" (wrangler.toml's
 * local vars); production must never set it. Everywhere else it answers 404.
 */
export function isDevMailboxEnabled(env: Pick<Env, "DEV_MAILBOX">): boolean {
  return (env.DEV_MAILBOX as string | undefined) === "true";
}

export interface MailboxEntry {
  id: string;
  to: string;
  subject: string;
  kind: string;
  createdAt: string;
  sentAt: string | null;
}

/** The newest outbox mail, and one mail in full when `id` names one. NOT_FOUND unless enabled. */
export async function readDevMailbox(ctx: Pick<MailContext, "db"> & { env: Pick<Env, "DEV_MAILBOX"> }, id: string | null) {
  if (!isDevMailboxEnabled(ctx.env)) throw new AppError("NOT_FOUND");
  const rows = await ctx.db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt), sql`rowid desc`).limit(MAILBOX_LIMIT).all();
  const entries: MailboxEntry[] = rows.map((row) => ({
    id: row.id, to: row.to, subject: row.subject, kind: row.kind,
    createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null,
  }));
  const selected = id ? await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get() : undefined;
  if (id && !selected) throw new AppError("NOT_FOUND");
  return {
    entries,
    selected: selected
      ? { id: selected.id, to: selected.to, subject: selected.subject, kind: selected.kind, createdAt: selected.createdAt.toISOString(), text: selected.text, html: selected.html }
      : null,
  };
}
