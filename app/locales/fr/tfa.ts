import type en from "../en/tfa";
import type { Messages } from "../types";

export default {
  login: {
    title: "Authentification à deux facteurs",
    heading: "Saisissez votre code de vérification",
    text: "Ouvrez l’application d’authentification sur votre téléphone et saisissez le code à 6 chiffres qu’elle affiche.",
    code: "Code de vérification",
    submit: "Vérifier",
    submitting: "Vérification…",
    useRecoveryCode: "Appareil perdu ? Utilisez votre code de récupération",
    logout: "Se déconnecter",
  },
  recover: {
    title: "Code de récupération",
    heading: "Utiliser votre code de récupération",
    text: "Saisissez le code de récupération que vous avez conservé lors de la configuration de l’authentification à deux facteurs. Celle-ci est alors désactivée, et vous la configurez de nouveau avec une nouvelle clé.",
    code: "Code de récupération",
    submit: "Continuer",
    submitting: "Vérification…",
    back: "Retour au code de vérification",
  },
  enable: {
    title: "Configurer l’authentification à deux facteurs",
    heading: "Configurer l’authentification à deux facteurs",
    required: "Votre compte exige l’authentification à deux facteurs. Configurez-la pour continuer.",
    preparing: "Préparation de votre clé…",
    retry: "Réessayer",
    step1: "Ajoutez cette clé dans l’application d’authentification de votre téléphone :",
    keyLabel: "Clé",
    openApp: "Ouvrir dans une application d’authentification sur cet appareil",
    step2: "Saisissez ensuite le code à 6 chiffres affiché par l’application :",
    code: "Code de vérification",
    submit: "Vérifier",
    submitting: "Vérification…",
    enabled: "L’authentification à deux facteurs est activée.",
    recoveryHeading: "Votre code de récupération",
    recoveryText: "Si vous perdez votre téléphone, ce code est le seul moyen de vous connecter. Il n’est affiché qu’une fois et ne fonctionne qu’une fois : conservez-le en lieu sûr, par exemple dans un gestionnaire de mots de passe.",
    stored: "J’ai conservé mon code de récupération",
    continue: "Continuer",
  },
} satisfies Messages<typeof en>;
