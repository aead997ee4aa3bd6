import type en from "../en/profile";
import type { Messages } from "../types";

export default {
  title: "Profil bearbeiten",
  tabs: { general: "Allgemein", password: "Passwort ändern", authentication: "Authentifizierung" },
  tfa: {
    heading: "Zwei-Faktor-Authentifizierung",
    enabled: "Die Zwei-Faktor-Authentifizierung ist aktiv. Bei der Anmeldung werden Sie nach einem Code aus Ihrer Authenticator-App gefragt.",
    disabled: "Schützen Sie Ihr Konto zusätzlich zum Passwort mit einem Code aus einer Authenticator-App.",
    enable: "Zwei-Faktor-Authentifizierung aktivieren",
    disable: "Zwei-Faktor-Authentifizierung deaktivieren",
    password: "Aktuelles Passwort",
    required: "Ihr Konto verlangt die Zwei-Faktor-Authentifizierung, daher kann sie nicht deaktiviert werden.",
    disabledNotice: "Die Zwei-Faktor-Authentifizierung wurde deaktiviert.",
  },
  api: {
    heading: "API-Zugriff",
    intro: "Mit einem persönlichen API-Token können Skripte die API in Ihrem Namen und mit Ihren Berechtigungen aufrufen. Senden Sie es als „Authorization: Bearer <Token>“.",
    none: "Der API-Zugriff ist deaktiviert.",
    active: "Token {{prefix}}… erstellt am {{date}}.",
    lastUsed: "Zuletzt verwendet am {{date}}.",
    neverUsed: "Noch nie verwendet.",
    enable: "API-Zugriff aktivieren",
    regenerate: "Token neu erzeugen",
    disable: "API-Zugriff deaktivieren",
    confirmRegenerate: "Das aktuelle Token funktioniert sofort nicht mehr. Fortfahren?",
    confirmDisable: "Skripte, die Ihr Token verwenden, funktionieren sofort nicht mehr. Fortfahren?",
    newToken: "Ihr neues API-Token. Kopieren Sie es jetzt – es wird nicht noch einmal angezeigt.",
    copy: "Kopieren",
    copied: "Kopiert",
    upgradeTag: "Agentur-Tarif",
    upgradeText: "Der API-Zugriff ist Teil des Agentur-Tarifs.",
    upgradeLink: "Tarife ansehen",
    adminsOnly: "Der API-Zugriff steht Administratoren zur Verfügung.",
  },
} satisfies Messages<typeof en>;
