import type en from "../en/tfa";
import type { Messages } from "../types";

export default {
  login: {
    title: "Zwei-Faktor-Authentifizierung",
    heading: "Bestätigungscode eingeben",
    text: "Öffnen Sie die Authenticator-App auf Ihrem Smartphone und geben Sie den 6-stelligen Code ein, den sie anzeigt.",
    code: "Bestätigungscode",
    submit: "Bestätigen",
    submitting: "Wird geprüft …",
    useRecoveryCode: "Gerät verloren? Wiederherstellungscode verwenden",
    logout: "Abmelden",
  },
  recover: {
    title: "Wiederherstellungscode",
    heading: "Wiederherstellungscode verwenden",
    text: "Geben Sie den Wiederherstellungscode ein, den Sie beim Einrichten der Zwei-Faktor-Authentifizierung gespeichert haben. Die Zwei-Faktor-Authentifizierung wird dann ausgeschaltet, und Sie richten sie mit einem neuen Schlüssel wieder ein.",
    code: "Wiederherstellungscode",
    submit: "Weiter",
    submitting: "Wird geprüft …",
    back: "Zurück zum Bestätigungscode",
  },
  enable: {
    title: "Zwei-Faktor-Authentifizierung einrichten",
    heading: "Zwei-Faktor-Authentifizierung einrichten",
    required: "Ihr Konto verlangt die Zwei-Faktor-Authentifizierung. Richten Sie sie ein, um fortzufahren.",
    preparing: "Ihr Schlüssel wird vorbereitet …",
    retry: "Erneut versuchen",
    step1: "Fügen Sie diesen Schlüssel in der Authenticator-App auf Ihrem Smartphone hinzu:",
    keyLabel: "Schlüssel",
    openApp: "In einer Authenticator-App auf diesem Gerät öffnen",
    step2: "Geben Sie dann den 6-stelligen Code ein, den die App anzeigt:",
    code: "Bestätigungscode",
    submit: "Bestätigen",
    submitting: "Wird geprüft …",
    enabled: "Die Zwei-Faktor-Authentifizierung ist eingeschaltet.",
    recoveryHeading: "Ihr Wiederherstellungscode",
    recoveryText: "Wenn Sie Ihr Smartphone verlieren, können Sie sich nur noch mit diesem Code anmelden. Er wird nur einmal angezeigt und funktioniert nur einmal. Bewahren Sie ihn sicher auf, etwa in einem Passwort-Manager.",
    stored: "Ich habe meinen Wiederherstellungscode gespeichert",
    continue: "Weiter",
  },
} satisfies Messages<typeof en>;
