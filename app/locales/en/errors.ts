import type { ErrorCode } from "~/lib/error-codes";

/**
 * The message of every catalogue code, looked up as `errors:<CODE>`; unknown codes get `generic`.
 * Texts the spec gives are used word for word; the others say what to do next.
 */
export default {
  generic: "An error occurred. Please try your request again later.",

  // Transport level
  VALIDATION_ERROR: "Please correct the highlighted errors.",
  UNAUTHORIZED: "Please log in to continue.",
  FORBIDDEN: "You don't have permission to do this. Ask an administrator of your account for access.",
  NOT_FOUND: "The page you requested could not be found.",
  DOMAIN_INACTIVE: "This domain is no longer active.",
  RATE_LIMITED: "Too many attempts. Please wait a minute, then try again.",
  INTERNAL_ERROR: "An error occurred. Please try your request again later.",

  // Accounts and sign-in
  INVALID_TFA_TOKEN: "The token you entered is not valid.",
  INVALID_RECOVERY_TOKEN: "The link you followed has expired.",
  INCORRECT_PASSWORD: "Your password is incorrect.",
  ACCOUNT_LOCKED: "This account is locked after too many failed attempts. Reset your password to unlock it.",
  PASSWORD_TOO_SHORT: "Passwords must be at least eight characters long.",
  EMAIL_NOT_REGISTERED: "This email address is not registered.",
  EMAIL_IN_USE: "This email address is already in use.",
  DOMAIN_IN_USE: "This domain is already in use.",

  // Plans, billing and locks
  UPGRADE_REQUIRED: "Please upgrade your account to unlock this feature.",
  SITE_IS_LOCKED: "This request cannot be completed because the site is on lockdown.",
  NO_PAYMENT_INFO: "There is no payment method on file for this account. Please add a card under Billing, then try again.",

  // Analytics
  GA_INSUFFICIENT_PERMISSIONS: "Your analytics provider says you do not have permission to access this property.",
  GA_INVALID_CREDENTIALS:
    "Your analytics provider did not accept the saved credentials. Please reconnect your analytics account in Settings, then try again.",
  GA_NOT_ENABLED:
    "Analytics is not set up for this site. Add the tracking script or connect Google Analytics in the site's settings under Services.",
  GA_FETCH_FAILED: "We were unable to fetch data from your analytics provider.",

  // Blocks and templates
  BLOCKS_QUOTA_REACHED: "This site has reached the maximum number of blocks allowed.",
  BLOCKS_MUST_NOT_HAVE_IDS: "Blocks cannot contain ID attributes.",
  TEMPLATE_QUOTA_REACHED: "This site has reached the maximum number of templates allowed.",

  // Files
  FILE_ALREADY_EXISTS: "A file already exists at the specified location.",
  FILE_TYPE_NOT_SUPPORTED: "This type of file is not supported.",
  FILE_TOO_LARGE: "This file is too large. Files can be up to 25\u00a0MB each, and 100\u00a0MB per upload in total.",
  INVALID_UPLOAD_PATH: "Files cannot be uploaded here.",
  PATH_OUTSIDE_OF_HOME_FOLDER: "The selected path is outside of the site's home folder.",

  // Drafts and publishing
  PAGE_CHANGED_ON_SERVER:
    "This page was changed on your server after your draft was started. Reload the page to work from the current version.",
  REVISION_CONFLICT:
    "Someone else saved this draft while you were editing it. Reload the page to see their changes, then make your edits again.",
  PUBLISH_IN_PROGRESS: "This page is already being published. Please wait until publishing has finished, then try again.",
  RENDER_EXPIRED: "This preview has expired. Reload the page to open the editor again.",
  PUBLISHING_ERROR:
    "Your page could not be published. Please try again. If the problem continues, use Test Connection in the site's settings to check the connection to your server.",

  INVALID_REGION_CONTENT:
    "The content of a region contains something that cannot be published there, such as a region marker, an unsafe link or markup that would break the page's layout. Remove it, then try again.",

  // Embeds
  OEMBED_LOOKUP_FAILED:
    "This address could not be embedded. Check that it is the address of a video or post from a supported service, or paste the embed code instead.",

  // The connection agent and the customer's server
  CONNECTION_AGENT_CONNECT: "Unable to connect to your website.",
  CONNECTION_AGENT_AUTH: "Unable to authenticate with your server.",
  CONNECTION_AGENT_MKDIR:
    "Unable to create the folder on your server. Check that your server account is allowed to write to this location, then try again.",
  CONNECTION_AGENT_DELETE:
    "Unable to delete the file on your server. Check that your server account is allowed to delete it, then try again.",
  CONNECTION_AGENT_DOWNLOAD:
    "Unable to download the file from your server. Check that the file still exists and that your server account can read it, then try again.",
  CONNECTION_AGENT_LIST:
    "Unable to list the files on your server. Check the home folder in the site's settings, then try again.",
  CONNECTION_AGENT_MOVE:
    "Unable to move the file on your server. Check that nothing already exists at the new location and that your server account is allowed to change it, then try again.",
  CONNECTION_AGENT_UPLOAD:
    "Unable to upload the file to your server. Check that your server account is allowed to write to this folder and that the server has free space, then try again.",
  CONNECTION_AGENT_OFFLINE:
    "The connection agent for this site is offline. Check that it is running, or choose the hosted agent in the site's settings.",
  CONNECTION_AGENT_TIMEOUT:
    "Your server took too long to respond. Please try again in a moment. If this keeps happening, check that your server is reachable.",
  CONNECTION_AGENT_HOST_NOT_ALLOWED:
    "This host points to a private or reserved network address, which cannot be reached. Please enter the public host name or IP address of your server.",
} as const satisfies Record<ErrorCode | "generic", string>;
