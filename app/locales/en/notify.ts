/** Notification titles, success messages, notices and confirmation dialogs. English is the source of truth. */
export default {
  errorTitle: "Error",
  saved: "Your changes have been saved.",
  demoReset: "The demo has been reset.",
  checkEmail: "Please check your email for further instructions.",
  passwordUpdated: "Your password has been updated.",
  requestReceived: "Your request has been received. We'll be in touch soon!",
  connectionSuccessful: "Connection successful!",
  screenshotGenerating: "A new screenshot is being generated.",
  regionNotFound: "Failed to locate content region.",
  noRegions: "This page doesn't have any content regions.",
  editorInitFailed: "Sorry, but the editor could not be initialized. Please reload the page and try again.",
  unsavedChanges: {
    title: "Unsaved Changes",
    text: "Your changes haven't been saved. Are you sure you want to continue?",
    continue: "Continue",
    cancel: "Cancel",
  },
  upgrade: {
    title: "Upgrade Required",
    text: "This appears to be a commercial website, but you're on a personal plan. Please upgrade your account to publish this website.",
    draftText: "We can save your changes as a draft so you can publish them after you've upgraded.",
    saveDraftAndUpgrade: "Save Draft & Upgrade",
    mistake: "Did we make a mistake? Let us know!",
    cancel: "Cancel",
  },
  confirmDelete: "Are you sure you want to do this?",
  /** The change-notification email (agency plan), sent when someone publishes a page of a site. */
  changeEmail: {
    subject: "{{page}} was published on {{site}}",
    intro: "{{user}} published changes to {{page}} on {{site}}.",
    callToAction: "View the Page",
    footer: "You get this email because change notifications are on for this site. Turn them off on the site's settings.",
  },
} as const;
