import type en from "../en/common";
import type { Messages } from "../types";

export default {
  breadcrumb: "Brotkrümelnavigation",
  skipToContent: "Zum Inhalt springen",
  nav: {
    main: "Hauptnavigation",
    sites: "Websites",
    users: "Benutzer",
    support: "Support",
    billing: "Abrechnung",
    settings: "Einstellungen",
    favorites: "Favoriten",
    menu: "Menü",
  },
  upgradeBanner: {
    text: "Sie nutzen den kostenlosen Personal-Tarif. Führen Sie ein Upgrade durch, um kommerzielle Websites zu veröffentlichen und Analysen freizuschalten.",
    action: "Upgrade",
  },
  userMenu: {
    label: "Kontomenü für {{name}}",
    adminPanel: "Admin-Bereich",
    editProfile: "Profil bearbeiten",
    logout: "Abmelden",
    exitSudo: "Sudo-Modus beenden",
    sudoBanner: "Sie sind im Sudo-Modus als {{name}} angemeldet.",
  },
  language: {
    label: "Sprache",
    change: "Sprache ändern",
  },
  login: {
    title: "Anmelden",
    heading: "Bei Ihrem Konto anmelden",
    email: "E-Mail",
    password: "Passwort",
    trusted: "Diesem Gerät 30 Tage lang vertrauen",
    submit: "Anmelden",
    submitting: "Anmeldung läuft …",
    forgot: "Passwort vergessen?",
  },
  errorPage: {
    notFound: "Nicht gefunden",
    notFoundText: "Die angeforderte Seite wurde nicht gefunden.",
    outOfService: "Außer Betrieb",
    outOfServiceText: "Diese Domain ist nicht mehr aktiv.",
    serverError: "Serverfehler",
    serverErrorText: "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.",
    homepage: "Startseite",
  },
  sites: {
    title: "Websites",
    empty: "Keine Websites",
    emptyText: "Ihr Konto enthält noch keine Websites.",
    emptyTextNoAccess: "Es wurden noch keine Websites für Sie freigegeben. Bitten Sie Ihren Administrator um Zugriff.",
    noResults: "Keine Ergebnisse",
    pages_one: "{{count}} Seite",
    pages_other: "{{count}} Seiten",
    demo: "Demo",
    locked: "Gesperrt",
  },
  notifications: {
    region: "Benachrichtigungen",
    dismiss: "Schließen",
  },
  plan: {
    personal: "Personal",
    business: "Business",
    agency: "Agentur",
  },
} satisfies Messages<typeof en>;
