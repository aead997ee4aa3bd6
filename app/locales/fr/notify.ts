import type en from "../en/notify";
import type { Messages } from "../types";

export default {
  errorTitle: "Erreur",
  saved: "Vos modifications ont été enregistrées.",
  demoReset: "La démo a été réinitialisée.",
  checkEmail: "Veuillez consulter vos e-mails pour obtenir la suite des instructions.",
  passwordUpdated: "Votre mot de passe a été mis à jour.",
  requestReceived: "Votre demande a bien été reçue. Nous vous répondrons très bientôt\u00a0!",
  connectionSuccessful: "Connexion réussie\u00a0!",
  screenshotGenerating: "Une nouvelle capture d’écran est en cours de création.",
  regionNotFound: "Impossible de trouver la zone de contenu.",
  noRegions: "Cette page ne contient aucune zone de contenu.",
  editorInitFailed: "Désolé, l’éditeur n’a pas pu être initialisé. Veuillez recharger la page et réessayer.",
  unsavedChanges: {
    title: "Modifications non enregistrées",
    text: "Vos modifications n’ont pas été enregistrées. Voulez-vous vraiment continuer\u00a0?",
    continue: "Continuer",
    cancel: "Annuler",
  },
  upgrade: {
    title: "Mise à niveau requise",
    text: "Ce site semble être un site commercial, mais vous utilisez l’offre Personnel. Veuillez passer à une offre supérieure pour publier ce site.",
    draftText: "Nous pouvons enregistrer vos modifications en tant que brouillon, afin que vous puissiez les publier après la mise à niveau.",
    saveDraftAndUpgrade: "Enregistrer le brouillon et mettre à niveau",
    mistake: "Nous nous sommes trompés\u00a0? Faites-le-nous savoir\u00a0!",
    cancel: "Annuler",
  },
  confirmDelete: "Voulez-vous vraiment effectuer cette action\u00a0?",
  changeEmail: {
    subject: "{{page}} a été publiée sur {{site}}",
    intro: "{{user}} a publié des modifications de {{page}} sur {{site}}.",
    callToAction: "Voir la page",
    footer: "Vous recevez cet e-mail parce que les notifications de modification sont activées pour ce site. Vous pouvez les désactiver dans les réglages du site.",
  },
} satisfies Messages<typeof en>;
