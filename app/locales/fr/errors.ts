import type en from "../en/errors";
import type { Messages } from "../types";

export default {
  generic: "Une erreur s’est produite. Veuillez réessayer plus tard.",

  // Transport level
  VALIDATION_ERROR: "Veuillez corriger les erreurs signalées.",
  UNAUTHORIZED: "Veuillez vous connecter pour continuer.",
  FORBIDDEN:
    "Vous n’avez pas l’autorisation d’effectuer cette action. Demandez l’accès à un administrateur de votre compte.",
  NOT_FOUND: "La page demandée est introuvable.",
  DOMAIN_INACTIVE: "Ce domaine n’est plus actif.",
  RATE_LIMITED: "Trop de tentatives. Veuillez patienter une minute, puis réessayer.",
  INTERNAL_ERROR: "Une erreur s’est produite. Veuillez réessayer plus tard.",

  // Accounts and sign-in
  INVALID_TFA_TOKEN: "Le code saisi n’est pas valide.",
  INVALID_RECOVERY_TOKEN: "Le lien que vous avez suivi a expiré.",
  INCORRECT_PASSWORD: "Votre mot de passe est incorrect.",
  ACCOUNT_LOCKED: "Ce compte est verrouillé après trop de tentatives échouées. Réinitialisez votre mot de passe pour le déverrouiller.",
  PASSWORD_TOO_SHORT: "Les mots de passe doivent comporter au moins huit caractères.",
  EMAIL_NOT_REGISTERED: "Cette adresse e-mail n’est pas enregistrée.",
  EMAIL_IN_USE: "Cette adresse e-mail est déjà utilisée.",
  DOMAIN_IN_USE: "Ce domaine est déjà utilisé.",

  // Plans, billing and locks
  UPGRADE_REQUIRED: "Veuillez passer à une offre supérieure pour débloquer cette fonctionnalité.",
  SITE_IS_LOCKED: "Cette requête ne peut pas aboutir, car le site est verrouillé.",
  NO_PAYMENT_INFO:
    "Aucun moyen de paiement n’est enregistré pour ce compte. Veuillez ajouter une carte dans la rubrique Facturation, puis réessayer.",

  // Analytics
  GA_INSUFFICIENT_PERMISSIONS:
    "Selon votre fournisseur de statistiques, vous n’avez pas l’autorisation d’accéder à cette propriété.",
  GA_INVALID_CREDENTIALS:
    "Votre fournisseur de statistiques n’a pas accepté les identifiants enregistrés. Veuillez reconnecter votre compte de statistiques dans les Paramètres, puis réessayer.",
  GA_NOT_ENABLED:
    "Les statistiques ne sont pas configurées pour ce site. Ajoutez le script de suivi ou connectez Google Analytics dans les paramètres du site, rubrique Services.",
  GA_FETCH_FAILED: "Impossible de récupérer les données de votre fournisseur de statistiques.",

  // Blocks and templates
  BLOCKS_QUOTA_REACHED: "Ce site a atteint le nombre maximal de blocs autorisé.",
  BLOCKS_MUST_NOT_HAVE_IDS: "Les blocs ne peuvent pas contenir d’attributs ID.",
  TEMPLATE_QUOTA_REACHED: "Ce site a atteint le nombre maximal de modèles autorisé.",

  // Files
  FILE_ALREADY_EXISTS: "Un fichier existe déjà à l’emplacement indiqué.",
  FILE_TYPE_NOT_SUPPORTED: "Ce type de fichier n’est pas pris en charge.",
  FILE_TOO_LARGE:
    "Ce fichier est trop volumineux. Chaque fichier peut faire au plus 25\u00a0Mo, et chaque envoi au plus 100\u00a0Mo au total.",
  INVALID_UPLOAD_PATH: "Impossible d’envoyer des fichiers à cet emplacement.",
  PATH_OUTSIDE_OF_HOME_FOLDER: "Le chemin sélectionné se trouve en dehors du dossier racine du site.",

  // Drafts and publishing
  PAGE_CHANGED_ON_SERVER:
    "Cette page a été modifiée sur votre serveur après la création de votre brouillon. Rechargez la page pour travailler sur la version actuelle.",
  REVISION_CONFLICT:
    "Quelqu’un d’autre a enregistré ce brouillon pendant que vous le modifiiez. Rechargez la page pour voir ses modifications, puis refaites les vôtres.",
  PUBLISH_IN_PROGRESS:
    "Cette page est déjà en cours de publication. Veuillez attendre la fin de la publication, puis réessayer.",
  RENDER_EXPIRED: "Cet aperçu a expiré. Rechargez la page pour rouvrir l’éditeur.",
  PUBLISHING_ERROR:
    "Votre page n’a pas pu être publiée. Veuillez réessayer. Si le problème persiste, vérifiez la connexion à votre serveur avec «\u00a0Tester la connexion\u00a0» dans les paramètres du site.",

  INVALID_REGION_CONTENT:
    "Le contenu d’une zone contient un élément qui ne peut pas y être publié, comme un marqueur de zone, un lien non sûr ou un balisage qui casserait la mise en page. Supprimez-le, puis réessayez.",

  // Embeds
  OEMBED_LOOKUP_FAILED:
    "Impossible d’intégrer cette adresse. Vérifiez qu’il s’agit bien de l’adresse d’une vidéo ou d’une publication d’un service pris en charge, ou collez plutôt le code d’intégration.",

  // The connection agent and the customer's server
  CONNECTION_AGENT_CONNECT: "Impossible de se connecter à votre site web.",
  CONNECTION_AGENT_AUTH: "Impossible de s’authentifier auprès de votre serveur.",
  CONNECTION_AGENT_MKDIR:
    "Impossible de créer le dossier sur votre serveur. Vérifiez que votre compte serveur est autorisé à écrire à cet emplacement, puis réessayez.",
  CONNECTION_AGENT_DELETE:
    "Impossible de supprimer le fichier sur votre serveur. Vérifiez que votre compte serveur est autorisé à le supprimer, puis réessayez.",
  CONNECTION_AGENT_DOWNLOAD:
    "Impossible de télécharger le fichier depuis votre serveur. Vérifiez qu’il existe toujours et que votre compte serveur peut le lire, puis réessayez.",
  CONNECTION_AGENT_LIST:
    "Impossible d’afficher la liste des fichiers de votre serveur. Vérifiez le dossier racine dans les paramètres du site, puis réessayez.",
  CONNECTION_AGENT_MOVE:
    "Impossible de déplacer le fichier sur votre serveur. Vérifiez que rien n’existe déjà au nouvel emplacement et que votre compte serveur est autorisé à le modifier, puis réessayez.",
  CONNECTION_AGENT_UPLOAD:
    "Impossible d’envoyer le fichier sur votre serveur. Vérifiez que votre compte serveur est autorisé à écrire dans ce dossier et que le serveur dispose d’assez d’espace libre, puis réessayez.",
  CONNECTION_AGENT_OFFLINE:
    "L’agent de connexion de ce site est hors ligne. Vérifiez qu’il est en cours d’exécution, ou choisissez l’agent hébergé dans les paramètres du site.",
  CONNECTION_AGENT_TIMEOUT:
    "Votre serveur a mis trop de temps à répondre. Veuillez réessayer dans un instant. Si le problème persiste, vérifiez que votre serveur est joignable.",
  CONNECTION_AGENT_HOST_NOT_ALLOWED:
    "Cet hôte correspond à une adresse réseau privée ou réservée, qui n’est pas joignable. Veuillez saisir le nom d’hôte public ou l’adresse IP publique de votre serveur.",
} satisfies Messages<typeof en>;
