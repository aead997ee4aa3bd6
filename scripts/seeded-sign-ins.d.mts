export declare const SEEDED_SIGN_INS: {
  password: string;
  users: { role: string; email: string }[];
  tfa: { email: string; secret: string; recoveryCode: string };
};
