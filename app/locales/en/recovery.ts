/** Password recovery, reset, welcome, their emails and the development mailbox. English is the source of truth. */
export default {
  successTitle: "Success",
  password: {
    show: "Show password",
    hint: "At least eight characters.",
  },
  recover: {
    title: "Recover Password",
    heading: "Forgot your password?",
    text: "Enter the email address of your account and we'll send you a link to choose a new password.",
    email: "Email",
    submit: "Send Reset Link",
    submitting: "Sending…",
    cancel: "Cancel",
  },
  reset: {
    title: "Reset Password",
    heading: "Choose a new password",
    password: "New password",
    submit: "Update Password",
    submitting: "Updating…",
    requestNew: "Request a new link",
    home: "Continue",
  },
  welcome: {
    title: "Welcome",
    heading: "Welcome! Choose a password for your account",
    password: "Choose a password",
    submit: "Confirm Account",
    submitting: "Confirming…",
    login: "Go to the login page",
  },
  /** The texts the pages send for the emails (spec section 7: subject, intro, callToAction, outro). */
  resetEmail: {
    subject: "Reset your password",
    intro: "We received a request to reset the password of your account. Use the button below to choose a new one.",
    callToAction: "Choose a New Password",
    outro: "If you didn't ask for this, you can ignore this email: your password stays as it is.",
  },
  welcomeEmail: {
    subject: "Your new account is ready",
    intro: "An account has been created for you. Use the button below to choose a password and sign in.",
    callToAction: "Choose a Password",
    outro: "If you weren't expecting this invitation, you can ignore this email.",
  },
  /** The fixed parts of the email template, in the recipient's language. */
  email: {
    linkHint: "If the button does not work, copy this address into your browser:",
    resetExpiry: "The link can be used once and expires in one hour.",
    welcomeExpiry: "The link can be used once and expires in seven days.",
  },
  mailbox: {
    title: "Development Mailbox",
    notice: "Every email the app has queued, newest first. This page exists for local development only (DEV_MAILBOX) and must never be enabled in production.",
    empty: "No emails yet.",
    to: "To",
    subject: "Subject",
    kind: "Kind",
    time: "Time",
    back: "All emails",
    text: "Plain text",
    html: "HTML",
    htmlFrame: "HTML version of the email",
  },
};
