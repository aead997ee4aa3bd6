import type en from "../en/errors";
import type { Messages } from "../types";

export default {
  generic: "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.",

  // Transport level
  VALIDATION_ERROR: "Bitte korrigieren Sie die markierten Fehler.",
  UNAUTHORIZED: "Bitte melden Sie sich an, um fortzufahren.",
  FORBIDDEN: "Sie haben keine Berechtigung für diese Aktion. Bitten Sie einen Administrator Ihres Kontos um Zugriff.",
  NOT_FOUND: "Die angeforderte Seite wurde nicht gefunden.",
  DOMAIN_INACTIVE: "Diese Domain ist nicht mehr aktiv.",
  RATE_LIMITED: "Zu viele Versuche. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.",
  INTERNAL_ERROR: "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.",

  // Accounts and sign-in
  INVALID_TFA_TOKEN: "Der eingegebene Code ist ungültig.",
  INVALID_RECOVERY_TOKEN: "Der aufgerufene Link ist abgelaufen.",
  INCORRECT_PASSWORD: "Ihr Passwort ist falsch.",
  ACCOUNT_LOCKED: "Dieses Konto ist nach zu vielen Fehlversuchen gesperrt. Setzen Sie Ihr Passwort zurück, um es zu entsperren.",
  PASSWORD_TOO_SHORT: "Passwörter müssen mindestens acht Zeichen lang sein.",
  EMAIL_NOT_REGISTERED: "Diese E-Mail-Adresse ist nicht registriert.",
  EMAIL_IN_USE: "Diese E-Mail-Adresse wird bereits verwendet.",
  DOMAIN_IN_USE: "Diese Domain wird bereits verwendet.",

  // Plans, billing and locks
  UPGRADE_REQUIRED: "Bitte führen Sie ein Upgrade Ihres Kontos durch, um diese Funktion freizuschalten.",
  SITE_IS_LOCKED: "Diese Anfrage kann nicht ausgeführt werden, weil die Website gesperrt ist.",
  NO_PAYMENT_INFO:
    "Für dieses Konto ist keine Zahlungsmethode hinterlegt. Bitte fügen Sie unter „Abrechnung“ eine Karte hinzu und versuchen Sie es dann erneut.",

  // Analytics
  GA_INSUFFICIENT_PERMISSIONS: "Laut Ihrem Analyseanbieter haben Sie keine Berechtigung für den Zugriff auf diese Property.",
  GA_INVALID_CREDENTIALS:
    "Ihr Analyseanbieter hat die gespeicherten Zugangsdaten nicht akzeptiert. Bitte verbinden Sie Ihr Analysekonto in den Einstellungen erneut und versuchen Sie es dann noch einmal.",
  GA_NOT_ENABLED:
    "Für diese Website sind keine Analysen eingerichtet. Fügen Sie das Tracking-Skript ein oder verbinden Sie Google Analytics in den Website-Einstellungen unter „Dienste“.",
  GA_FETCH_FAILED: "Die Daten Ihres Analyseanbieters konnten nicht abgerufen werden.",

  // Blocks and templates
  BLOCKS_QUOTA_REACHED: "Diese Website hat die maximal zulässige Anzahl an Blöcken erreicht.",
  BLOCKS_MUST_NOT_HAVE_IDS: "Blöcke dürfen keine ID-Attribute enthalten.",
  TEMPLATE_QUOTA_REACHED: "Diese Website hat die maximal zulässige Anzahl an Vorlagen erreicht.",

  // Files
  FILE_ALREADY_EXISTS: "Am angegebenen Speicherort ist bereits eine Datei vorhanden.",
  FILE_TYPE_NOT_SUPPORTED: "Dieser Dateityp wird nicht unterstützt.",
  FILE_TOO_LARGE:
    "Diese Datei ist zu groß. Eine Datei darf höchstens 25\u00a0MB groß sein, ein Upload insgesamt höchstens 100\u00a0MB.",
  INVALID_UPLOAD_PATH: "An diesen Ort können keine Dateien hochgeladen werden.",
  PATH_OUTSIDE_OF_HOME_FOLDER: "Der ausgewählte Pfad liegt außerhalb des Stammordners der Website.",

  // Drafts and publishing
  PAGE_CHANGED_ON_SERVER:
    "Diese Seite wurde auf Ihrem Server geändert, nachdem Ihr Entwurf angelegt wurde. Laden Sie die Seite neu, um mit der aktuellen Version weiterzuarbeiten.",
  REVISION_CONFLICT:
    "Jemand anderes hat diesen Entwurf gespeichert, während Sie ihn bearbeitet haben. Laden Sie die Seite neu, um diese Änderungen zu sehen, und nehmen Sie Ihre Bearbeitungen dann erneut vor.",
  PUBLISH_IN_PROGRESS:
    "Diese Seite wird bereits veröffentlicht. Bitte warten Sie, bis die Veröffentlichung abgeschlossen ist, und versuchen Sie es dann erneut.",
  RENDER_EXPIRED: "Diese Vorschau ist abgelaufen. Laden Sie die Seite neu, um den Editor erneut zu öffnen.",
  PUBLISHING_ERROR:
    "Ihre Seite konnte nicht veröffentlicht werden. Bitte versuchen Sie es erneut. Besteht das Problem weiterhin, prüfen Sie die Verbindung zu Ihrem Server mit „Verbindung testen“ in den Website-Einstellungen.",

  INVALID_REGION_CONTENT:
    "Der Inhalt eines Bereichs enthält etwas, das dort nicht veröffentlicht werden kann, etwa eine Bereichsmarkierung, einen unsicheren Link oder Markup, das das Layout der Seite zerstören würde. Entfernen Sie es und versuchen Sie es dann erneut.",

  // Embeds
  OEMBED_LOOKUP_FAILED:
    "Diese Adresse konnte nicht eingebettet werden. Prüfen Sie, ob es sich um die Adresse eines Videos oder Beitrags eines unterstützten Dienstes handelt, oder fügen Sie stattdessen den Einbettungscode ein.",

  // The connection agent and the customer's server
  CONNECTION_AGENT_CONNECT: "Es konnte keine Verbindung zu Ihrer Website hergestellt werden.",
  CONNECTION_AGENT_AUTH: "Die Anmeldung bei Ihrem Server ist fehlgeschlagen.",
  CONNECTION_AGENT_MKDIR:
    "Der Ordner konnte auf Ihrem Server nicht erstellt werden. Prüfen Sie, ob Ihr Serverkonto an diesem Ort schreiben darf, und versuchen Sie es dann erneut.",
  CONNECTION_AGENT_DELETE:
    "Die Datei konnte auf Ihrem Server nicht gelöscht werden. Prüfen Sie, ob Ihr Serverkonto sie löschen darf, und versuchen Sie es dann erneut.",
  CONNECTION_AGENT_DOWNLOAD:
    "Die Datei konnte nicht von Ihrem Server heruntergeladen werden. Prüfen Sie, ob sie noch vorhanden ist und Ihr Serverkonto sie lesen darf, und versuchen Sie es dann erneut.",
  CONNECTION_AGENT_LIST:
    "Die Dateien auf Ihrem Server konnten nicht aufgelistet werden. Prüfen Sie den Stammordner in den Website-Einstellungen und versuchen Sie es dann erneut.",
  CONNECTION_AGENT_MOVE:
    "Die Datei konnte auf Ihrem Server nicht verschoben werden. Prüfen Sie, ob am neuen Ort bereits etwas vorhanden ist und ob Ihr Serverkonto die Datei ändern darf, und versuchen Sie es dann erneut.",
  CONNECTION_AGENT_UPLOAD:
    "Die Datei konnte nicht auf Ihren Server hochgeladen werden. Prüfen Sie, ob Ihr Serverkonto in diesen Ordner schreiben darf und auf dem Server genügend Speicherplatz frei ist, und versuchen Sie es dann erneut.",
  CONNECTION_AGENT_OFFLINE:
    "Der Verbindungsagent dieser Website ist offline. Prüfen Sie, ob er läuft, oder wählen Sie in den Website-Einstellungen den gehosteten Agenten.",
  CONNECTION_AGENT_TIMEOUT:
    "Ihr Server hat zu lange nicht geantwortet. Bitte versuchen Sie es gleich noch einmal. Tritt das Problem weiterhin auf, prüfen Sie, ob Ihr Server erreichbar ist.",
  CONNECTION_AGENT_HOST_NOT_ALLOWED:
    "Dieser Host verweist auf eine private oder reservierte Netzwerkadresse, die nicht erreichbar ist. Bitte geben Sie den öffentlichen Hostnamen oder die öffentliche IP-Adresse Ihres Servers ein.",
} satisfies Messages<typeof en>;
