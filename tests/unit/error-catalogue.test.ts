import { describe, it, expect } from "vitest";
import { ERROR_CODES, ERROR_STATUS, isErrorCode } from "~/lib/error-codes";
import deErrors from "~/locales/de/errors";
import enErrors from "~/locales/en/errors";
import frErrors from "~/locales/fr/errors";
import deNotify from "~/locales/de/notify";
import enNotify from "~/locales/en/notify";
import frNotify from "~/locales/fr/notify";

const errors: Record<"en" | "de" | "fr", Record<string, string>> = { en: enErrors, de: deErrors, fr: frErrors };
const ALLOWED_STATUSES = [400, 401, 403, 404, 409, 410, 413, 429, 500, 502, 503, 504];

/** The texts both spec documents give word for word. */
const SPEC_TEXTS: Record<string, string> = {
  generic: "An error occurred. Please try your request again later.",
  INVALID_RECOVERY_TOKEN: "The link you followed has expired.",
  INCORRECT_PASSWORD: "Your password is incorrect.",
  PASSWORD_TOO_SHORT: "Passwords must be at least eight characters long.",
  DOMAIN_IN_USE: "This domain is already in use.",
  EMAIL_IN_USE: "This email address is already in use.",
  EMAIL_NOT_REGISTERED: "This email address is not registered.",
  SITE_IS_LOCKED: "This request cannot be completed because the site is on lockdown.",
  UPGRADE_REQUIRED: "Please upgrade your account to unlock this feature.",
  VALIDATION_ERROR: "Please correct the highlighted errors.",
  GA_INSUFFICIENT_PERMISSIONS: "Your analytics provider says you do not have permission to access this property.",
  BLOCKS_QUOTA_REACHED: "This site has reached the maximum number of blocks allowed.",
  BLOCKS_MUST_NOT_HAVE_IDS: "Blocks cannot contain ID attributes.",
  TEMPLATE_QUOTA_REACHED: "This site has reached the maximum number of templates allowed.",
  FILE_ALREADY_EXISTS: "A file already exists at the specified location.",
  FILE_TYPE_NOT_SUPPORTED: "This type of file is not supported.",
  INVALID_UPLOAD_PATH: "Files cannot be uploaded here.",
  PATH_OUTSIDE_OF_HOME_FOLDER: "The selected path is outside of the site's home folder.",
  CONNECTION_AGENT_CONNECT: "Unable to connect to your website.",
  CONNECTION_AGENT_AUTH: "Unable to authenticate with your server.",
};

/** Every leaf of a nested message object, as [dotted key, value]. */
function leaves(messages: object, prefix = ""): [string, unknown][] {
  return Object.entries(messages).flatMap(([key, value]): [string, unknown][] =>
    typeof value === "object" && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

describe("error catalogue", () => {
  it("lists every code once, each with an allowed status", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      expect(ALLOWED_STATUSES, code).toContain(ERROR_STATUS[code]);
    }
  });

  it("includes every code the specs and DECISIONS.md name", () => {
    for (const code of Object.keys(SPEC_TEXTS).filter((key) => key !== "generic")) {
      expect(isErrorCode(code), code).toBe(true);
    }
    for (const code of [
      "GA_INVALID_CREDENTIALS",
      "GA_NOT_ENABLED",
      "NO_PAYMENT_INFO",
      "PUBLISHING_ERROR",
      "CONNECTION_AGENT_MKDIR",
      "CONNECTION_AGENT_DELETE",
      "CONNECTION_AGENT_DOWNLOAD",
      "CONNECTION_AGENT_LIST",
      "CONNECTION_AGENT_MOVE",
      "CONNECTION_AGENT_UPLOAD",
      "CONNECTION_AGENT_OFFLINE",
      "CONNECTION_AGENT_TIMEOUT",
      "CONNECTION_AGENT_HOST_NOT_ALLOWED",
      "PAGE_CHANGED_ON_SERVER",
      "REVISION_CONFLICT",
      "PUBLISH_IN_PROGRESS",
    ]) {
      expect(isErrorCode(code), code).toBe(true);
    }
  });

  it("uses the agreed statuses for the transport-level cases", () => {
    expect(ERROR_STATUS.VALIDATION_ERROR).toBe(400);
    expect(ERROR_STATUS.UNAUTHORIZED).toBe(401);
    expect(ERROR_STATUS.UPGRADE_REQUIRED).toBe(403);
    expect(ERROR_STATUS.SITE_IS_LOCKED).toBe(403);
    expect(ERROR_STATUS.NOT_FOUND).toBe(404);
    expect(ERROR_STATUS.DOMAIN_INACTIVE).toBe(410);
    expect(ERROR_STATUS.INVALID_RECOVERY_TOKEN).toBe(400);
    expect(ERROR_STATUS.RATE_LIMITED).toBe(429);
    expect(ERROR_STATUS.INTERNAL_ERROR).toBe(500);
    expect(ERROR_STATUS.GA_FETCH_FAILED).toBe(502);
    expect(ERROR_STATUS.CONNECTION_AGENT_OFFLINE).toBe(503);
    expect(ERROR_STATUS.CONNECTION_AGENT_TIMEOUT).toBe(504);
  });

  it("recognises codes and nothing else", () => {
    expect(isErrorCode("SITE_IS_LOCKED")).toBe(true);
    for (const value of ["generic", "site_is_locked", "toString", "constructor", "", null, undefined, 404, {}]) {
      expect(isErrorCode(value), String(value)).toBe(false);
    }
  });
});

describe("error messages", () => {
  it.each(["en", "de", "fr"] as const)("%s has a non-empty message for every code and nothing more", (lng) => {
    const messages = errors[lng];
    for (const code of [...ERROR_CODES, "generic"]) {
      expect(typeof messages[code], `${lng}.${code}`).toBe("string");
      expect(messages[code].trim(), `${lng}.${code}`).not.toBe("");
    }
    expect(Object.keys(messages).sort()).toEqual([...ERROR_CODES, "generic"].sort());
  });

  it("uses the spec's English texts word for word", () => {
    for (const [code, text] of Object.entries(SPEC_TEXTS)) {
      expect(errors.en[code], code).toBe(text);
    }
    expect(enErrors.NOT_FOUND).toBe("The page you requested could not be found.");
    expect(enErrors.DOMAIN_INACTIVE).toBe("This domain is no longer active.");
    expect(enErrors.INVALID_TFA_TOKEN).toBe("The token you entered is not valid.");
    expect(enErrors.GA_FETCH_FAILED).toBe("We were unable to fetch data from your analytics provider.");
    expect(enErrors.INTERNAL_ERROR).toBe(enErrors.generic);
  });

  it.each(["de", "fr"] as const)("%s is translated, not copied from English", (lng) => {
    const copied = [...ERROR_CODES, "generic"].filter((code) => errors[lng][code] === errors.en[code]);
    expect(copied.length, `copied from English: ${copied.join(", ")}`).toBeLessThanOrEqual(2);
  });
});

describe("notification texts", () => {
  const en = leaves(enNotify);

  it.each([
    ["de", deNotify],
    ["fr", frNotify],
  ] as const)("%s has the same keys as English, every text non-empty and translated", (lng, messages) => {
    const translated = leaves(messages);
    expect(translated.map(([key]) => key).sort()).toEqual(en.map(([key]) => key).sort());
    for (const [key, value] of translated) {
      expect(typeof value, `${lng}.${key}`).toBe("string");
      expect(String(value).trim(), `${lng}.${key}`).not.toBe("");
    }
    const english = new Map(en);
    const copied = translated.filter(([key, value]) => english.get(key) === value).map(([key]) => key);
    expect(copied, `copied from English in ${lng}`).toEqual([]);
  });

  it("uses the spec's English texts word for word", () => {
    expect(enNotify.errorTitle).toBe("Error");
    expect(enNotify.saved).toBe("Your changes have been saved.");
    expect(enNotify.requestReceived).toBe("Your request has been received. We'll be in touch soon!");
    expect(enNotify.unsavedChanges.text).toBe("Your changes haven't been saved. Are you sure you want to continue?");
    expect(enNotify.confirmDelete).toBe("Are you sure you want to do this?");
  });
});

describe("French typography", () => {
  const french = [...Object.entries(frErrors), ...leaves(frNotify)];

  it("puts a non-breaking space, never a plain one or none, before ? ! : ;", () => {
    for (const [key, value] of french) {
      expect(String(value), key).not.toMatch(/(?:^|[^\u00a0\u202f])[?!:;]/);
    }
  });
});
