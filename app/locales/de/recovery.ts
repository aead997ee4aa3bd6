import type en from "../en/recovery";
import type { Messages } from "../types";

export default {
  successTitle: "Erledigt",
  password: {
    show: "Passwort anzeigen",
    hint: "Mindestens acht Zeichen.",
  },
  recover: {
    title: "Passwort wiederherstellen",
    heading: "Passwort vergessen?",
    text: "Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort wählen können.",
    email: "E-Mail",
    submit: "Link zum Zurücksetzen senden",
    submitting: "Wird gesendet…",
    cancel: "Abbrechen",
  },
  reset: {
    title: "Passwort zurücksetzen",
    heading: "Neues Passwort wählen",
    password: "Neues Passwort",
    submit: "Passwort ändern",
    submitting: "Wird geändert…",
    requestNew: "Neuen Link anfordern",
    home: "Weiter",
  },
  welcome: {
    title: "Willkommen",
    heading: "Willkommen! Wählen Sie ein Passwort für Ihr Konto",
    password: "Passwort wählen",
    submit: "Konto bestätigen",
    submitting: "Wird bestätigt…",
    login: "Zur Anmeldeseite",
  },
  resetEmail: {
    subject: "Setzen Sie Ihr Passwort zurück",
    intro: "Wir haben eine Anfrage erhalten, das Passwort Ihres Kontos zurückzusetzen. Über die Schaltfläche unten können Sie ein neues wählen.",
    callToAction: "Neues Passwort wählen",
    outro: "Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.",
  },
  welcomeEmail: {
    subject: "Ihr neues Konto ist bereit",
    intro: "Für Sie wurde ein Konto angelegt. Über die Schaltfläche unten wählen Sie ein Passwort und melden sich an.",
    callToAction: "Passwort wählen",
    outro: "Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.",
  },
  email: {
    linkHint: "Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:",
    resetExpiry: "Der Link kann einmal verwendet werden und läuft nach einer Stunde ab.",
    welcomeExpiry: "Der Link kann einmal verwendet werden und läuft nach sieben Tagen ab.",
  },
  mailbox: {
    title: "Entwicklungs-Postfach",
    notice: "Alle E-Mails, die die App in die Warteschlange gestellt hat, die neuesten zuerst. Diese Seite dient nur der lokalen Entwicklung (DEV_MAILBOX) und darf in der Produktion nie aktiviert werden.",
    empty: "Noch keine E-Mails.",
    to: "An",
    subject: "Betreff",
    kind: "Art",
    time: "Zeit",
    back: "Alle E-Mails",
    text: "Nur-Text",
    html: "HTML-Ansicht",
    htmlFrame: "HTML-Version der E-Mail",
  },
} satisfies Messages<typeof en>;
