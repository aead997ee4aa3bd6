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
  ],
};
