import type en from "../en/admin";
import type { Messages } from "../types";

export default {
  title: "Administration",
  tabs: { overview: "Vue d’ensemble", users: "Utilisateurs" },
  overviewPending: "Les statistiques de la plateforme s’afficheront ici.",
  search: { label: "Rechercher des utilisateurs", placeholder: "Nom ou adresse e-mail" },
  columns: { role: "Rôle", user: "Utilisateur", joined: "Inscription", options: "Options" },
  roles: { owner: "Propriétaire", admin: "Administrateur", client: "Client" },
  options: {
    menu: "Options pour {{name}}",
    sudo: "Connexion sudo",
    paymentProvider: "Voir chez le prestataire de paiement",
  },
  noResults: "Aucun résultat",
  emptySearch: "Recherchez un utilisateur par nom ou adresse e-mail.",
  account: "Compte {{id}}",
} satisfies Messages<typeof en>;
