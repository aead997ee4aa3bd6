import type en from "../en/admin";
import type { Messages } from "../types";

export default {
  title: "Administration",
  tabs: { overview: "Übersicht", users: "Benutzer" },
  overviewPending: "Hier erscheinen die Statistiken der Plattform.",
  search: { label: "Benutzer suchen", placeholder: "Name oder E-Mail-Adresse" },
  columns: { role: "Rolle", user: "Benutzer", joined: "Registriert", options: "Optionen" },
  roles: { owner: "Inhaber", admin: "Administrator", client: "Kunde" },
  options: {
    menu: "Optionen für {{name}}",
    sudo: "Sudo-Anmeldung",
    paymentProvider: "Beim Zahlungsanbieter ansehen",
  },
  noResults: "Keine Ergebnisse",
  emptySearch: "Suchen Sie einen Benutzer nach Name oder E-Mail-Adresse.",
  account: "Konto {{id}}",
} satisfies Messages<typeof en>;
