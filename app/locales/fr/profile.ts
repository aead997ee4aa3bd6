import type en from "../en/profile";
import type { Messages } from "../types";

export default {
  title: "Modifier le profil",
  tabs: { general: "Général", password: "Changer le mot de passe", authentication: "Authentification" },
  tfa: {
    heading: "Authentification à deux facteurs",
    enabled: "L’authentification à deux facteurs est activée. Un code de votre application d’authentification vous est demandé à la connexion.",
    disabled: "Protégez votre compte avec un code d’application d’authentification en plus de votre mot de passe.",
    enable: "Activer l’authentification à deux facteurs",
    disable: "Désactiver l’authentification à deux facteurs",
    password: "Mot de passe actuel",
    required: "Votre compte exige l’authentification à deux facteurs\u00a0: elle ne peut pas être désactivée.",
    disabledNotice: "L’authentification à deux facteurs a été désactivée.",
  },
  api: {
    heading: "Accès à l’API",
    intro: "Un jeton d’API personnel permet à des scripts d’appeler l’API en votre nom, avec vos autorisations. Envoyez-le sous la forme «\u00a0Authorization: Bearer <jeton>\u00a0».",
    none: "L’accès à l’API est désactivé.",
    active: "Jeton {{prefix}}… créé le {{date}}.",
    lastUsed: "Dernière utilisation le {{date}}.",
    neverUsed: "Jamais utilisé.",
    enable: "Activer l’accès à l’API",
    regenerate: "Régénérer le jeton",
    disable: "Désactiver l’accès à l’API",
    confirmRegenerate: "Le jeton actuel cessera immédiatement de fonctionner. Continuer\u00a0?",
    confirmDisable: "Les scripts qui utilisent votre jeton cesseront immédiatement de fonctionner. Continuer\u00a0?",
    newToken: "Votre nouveau jeton d’API. Copiez-le maintenant\u00a0: il ne sera plus affiché.",
    copy: "Copier",
    copied: "Copié",
    upgradeTag: "Offre Agence",
    upgradeText: "L’accès à l’API fait partie de l’offre Agence.",
    upgradeLink: "Voir les offres",
    adminsOnly: "L’accès à l’API est réservé aux administrateurs.",
  },
} satisfies Messages<typeof en>;
