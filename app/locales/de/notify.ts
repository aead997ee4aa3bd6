import type en from "../en/notify";
import type { Messages } from "../types";

export default {
  errorTitle: "Fehler",
  saved: "Ihre Änderungen wurden gespeichert.",
  demoReset: "Die Demo wurde zurückgesetzt.",
  checkEmail: "Bitte sehen Sie in Ihren E-Mails nach. Dort finden Sie weitere Anweisungen.",
  passwordUpdated: "Ihr Passwort wurde aktualisiert.",
  requestReceived: "Ihre Anfrage ist bei uns eingegangen. Wir melden uns in Kürze bei Ihnen!",
  connectionSuccessful: "Verbindung erfolgreich!",
  screenshotGenerating: "Ein neuer Screenshot wird erstellt.",
  regionNotFound: "Der Inhaltsbereich wurde nicht gefunden.",
  noRegions: "Diese Seite hat keine Inhaltsbereiche.",
  editorInitFailed: "Der Editor konnte leider nicht gestartet werden. Bitte laden Sie die Seite neu und versuchen Sie es erneut.",
  unsavedChanges: {
    title: "Ungespeicherte Änderungen",
    text: "Ihre Änderungen wurden nicht gespeichert. Möchten Sie wirklich fortfahren?",
    continue: "Fortfahren",
    cancel: "Abbrechen",
  },
  upgrade: {
    title: "Upgrade erforderlich",
    text: "Dies scheint eine kommerzielle Website zu sein, Sie nutzen jedoch den Personal-Tarif. Bitte führen Sie ein Upgrade Ihres Kontos durch, um diese Website zu veröffentlichen.",
    draftText: "Wir können Ihre Änderungen als Entwurf speichern, damit Sie sie nach dem Upgrade veröffentlichen können.",
    saveDraftAndUpgrade: "Entwurf speichern und upgraden",
    mistake: "Haben wir uns geirrt? Lassen Sie es uns wissen!",
    cancel: "Abbrechen",
  },
  confirmDelete: "Möchten Sie das wirklich tun?",
  changeEmail: {
    subject: "{{page}} wurde auf {{site}} veröffentlicht",
    intro: "{{user}} hat Änderungen an {{page}} auf {{site}} veröffentlicht.",
    callToAction: "Seite ansehen",
    footer: "Sie erhalten diese E-Mail, weil Änderungsbenachrichtigungen für diese Website aktiviert sind. Sie können sie in den Einstellungen der Website abschalten.",
  },
} satisfies Messages<typeof en>;
