import type en from "../en/common";
import type { Messages } from "../types";

export default {
  breadcrumb: "Fil d’Ariane",
  skipToContent: "Aller au contenu",
  nav: {
    main: "Navigation principale",
    sites: "Sites",
    users: "Utilisateurs",
    support: "Assistance",
    billing: "Facturation",
    settings: "Paramètres",
    favorites: "Favoris",
    menu: "Menu",
  },
  upgradeBanner: {
    text: "Vous utilisez l’offre gratuite Personnel. Passez à une offre supérieure pour publier des sites commerciaux et accéder aux statistiques.",
    action: "Mettre à niveau",
  },
  userMenu: {
    label: "Menu du compte de {{name}}",
    adminPanel: "Panneau d’administration",
    editProfile: "Modifier le profil",
    logout: "Se déconnecter",
    exitSudo: "Quitter le mode sudo",
    sudoBanner: "Vous êtes connecté en tant que {{name}} en mode sudo.",
  },
  language: {
    label: "Langue",
    change: "Changer de langue",
  },
  login: {
    title: "Connexion",
    heading: "Connectez-vous à votre compte",
    email: "E-mail",
    password: "Mot de passe",
    trusted: "Faire confiance à cet appareil pendant 30\u00a0jours",
    submit: "Se connecter",
    submitting: "Connexion…",
    forgot: "Mot de passe oublié\u00a0?",
  },
  errorPage: {
    notFound: "Page introuvable",
    notFoundText: "La page demandée est introuvable.",
    outOfService: "Hors service",
    outOfServiceText: "Ce domaine n’est plus actif.",
    serverError: "Erreur du serveur",
    serverErrorText: "Une erreur s’est produite. Veuillez réessayer plus tard.",
    homepage: "Page d’accueil",
  },
  sites: {
    title: "Sites",
    empty: "Aucun site",
    emptyText: "Votre compte ne contient encore aucun site web.",
    emptyTextNoAccess: "Aucun site n’a encore été partagé avec vous. Demandez l’accès à votre administrateur.",
    noResults: "Aucun résultat",
    pages_one: "{{count}}\u00a0page",
    pages_other: "{{count}}\u00a0pages",
    demo: "Démo",
    locked: "Verrouillé",
  },
  notifications: {
    region: "Notifications",
    dismiss: "Fermer",
  },
  plan: {
    personal: "Personnel",
    business: "Business",
    agency: "Agence",
  },
} satisfies Messages<typeof en>;
