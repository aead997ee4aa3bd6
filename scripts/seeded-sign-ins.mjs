// The sign-ins the seed creates; printed by `npm start` and listed in the README.
export const SEEDED_SIGN_INS = {
  password: "demo-password-1",
  users: [
    { role: "Superuser", email: "super@sitecraft.test" },
    { role: "Agency owner", email: "owner@agency.test" },
    { role: "Agency admin", email: "admin@agency.test" },
    { role: "Agency client user", email: "client@agency.test" },
    { role: "Business owner", email: "owner@business.test" },
    { role: "Personal owner", email: "owner@personal.test" },
    { role: "Agency admin, two-factor on", email: "tfa@agency.test" },
  ],
  /**
   * The two-factor user's fixed TOTP secret (base32: type it into any authenticator app, or let a
   * test compute the codes) and its one recovery code. Demo data only: never reuse these.
   */
  tfa: { email: "tfa@agency.test", secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", recoveryCode: "SEED-RECO-VERY-CODE-TFA2-3456" },
};
