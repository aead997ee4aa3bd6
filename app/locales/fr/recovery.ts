import type en from "../en/recovery";
import type { Messages } from "../types";

export default {
  successTitle: "Terminé",
  password: {
    show: "Afficher le mot de passe",
    hint: "Au moins huit caractères.",
  },
  recover: {
    title: "Récupérer le mot de passe",
    heading: "Mot de passe oublié\u00a0?",
    text: "Saisissez l'adresse e-mail de votre compte\u00a0: nous vous enverrons un lien pour choisir un nouveau mot de passe.",
    email: "E-mail",
    submit: "Envoyer le lien de réinitialisation",
    submitting: "Envoi…",
    cancel: "Annuler",
  },
  reset: {
    title: "Réinitialiser le mot de passe",
    heading: "Choisissez un nouveau mot de passe",
    password: "Nouveau mot de passe",
    submit: "Mettre à jour le mot de passe",
    submitting: "Mise à jour…",
    requestNew: "Demander un nouveau lien",
    home: "Continuer",
  },
  welcome: {
    title: "Bienvenue",
    heading: "Bienvenue\u00a0! Choisissez un mot de passe pour votre compte",
    password: "Choisissez un mot de passe",
    submit: "Confirmer le compte",
    submitting: "Confirmation…",
    login: "Aller à la page de connexion",
  },
  resetEmail: {
    subject: "Réinitialisez votre mot de passe",
    intro: "Nous avons reçu une demande de réinitialisation du mot de passe de votre compte. Utilisez le bouton ci-dessous pour en choisir un nouveau.",
    callToAction: "Choisir un nouveau mot de passe",
    outro: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail\u00a0: votre mot de passe reste inchangé.",
  },
  welcomeEmail: {
    subject: "Votre nouveau compte est prêt",
    intro: "Un compte a été créé pour vous. Utilisez le bouton ci-dessous pour choisir un mot de passe et vous connecter.",
    callToAction: "Choisir un mot de passe",
    outro: "Si vous n'attendiez pas cette invitation, ignorez cet e-mail.",
  },
  email: {
    linkHint: "Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur\u00a0:",
    resetExpiry: "Le lien ne peut être utilisé qu'une fois et expire au bout d'une heure.",
    welcomeExpiry: "Le lien ne peut être utilisé qu'une fois et expire au bout de sept jours.",
  },
  mailbox: {
    title: "Boîte aux lettres de développement",
    notice: "Tous les e-mails mis en file d'attente par l'application, du plus récent au plus ancien. Cette page sert uniquement au développement local (DEV_MAILBOX) et ne doit jamais être activée en production.",
    empty: "Aucun e-mail pour l'instant.",
    to: "Destinataire",
    subject: "Objet",
    kind: "Type",
    time: "Heure",
    back: "Tous les e-mails",
    text: "Texte brut",
    html: "Version HTML",
    htmlFrame: "Version HTML de l'e-mail",
  },
} satisfies Messages<typeof en>;
