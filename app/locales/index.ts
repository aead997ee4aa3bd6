import type { Resource } from "i18next";
import de from "./de";
import en from "./en";
import fr from "./fr";

/** Every interface string, per locale and namespace. English is the source the others are typed against. */
export const resources = { en, de, fr } satisfies Resource;
export const NAMESPACES = ["common", "errors", "notify", "tfa", "recovery", "admin", "profile", "users", "sites", "editor"] as const;
