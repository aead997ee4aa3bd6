import { z } from "zod";

/**
 * A code as typed: the service decides whether it is valid (INVALID_TFA_TOKEN on `token`), so a
 * code of the wrong shape gets the spec's message, not the generic validation one.
 */
const typedCode = z.string().trim().min(1).max(64);

/** `POST /auth/tfa`: the second step of a sign-in, for the session waiting for it. */
export const TfaLoginBody = z.object({ userId: z.string().min(1).max(64), token: typedCode });
export type TfaLoginBody = z.infer<typeof TfaLoginBody>;

/** `POST /auth/tfa/recover`: the recovery code shown when two-factor was set up. */
export const TfaRecoverBody = z.object({ token: typedCode });
export type TfaRecoverBody = z.infer<typeof TfaRecoverBody>;

/** `PUT /users/{userId}/tfa`: the first code from the authenticator confirms the set-up. */
export const TfaEnableBody = z.object({ token: typedCode });
export type TfaEnableBody = z.infer<typeof TfaEnableBody>;

/** `DELETE /users/{userId}/tfa`: switching two-factor off needs the password. */
export const TfaDisableBody = z.object({ password: z.string().min(1).max(1024) });
export type TfaDisableBody = z.infer<typeof TfaDisableBody>;

/** `POST /users/{userId}/tfa` (spec section 7): everything an authenticator app and the user need, shown once. */
export const TfaSetup = z.object({
  /** The secret as hex (the raw 20 bytes). */
  key: z.string(),
  /** The same secret in unpadded base32, the form authenticator apps accept when typed. */
  keyBase32: z.string(),
  /** The single recovery code (120 bits, base32 in groups of four); only its SHA-256 is stored. */
  recoveryToken: z.string(),
  /** `otpauth://totp/…`, what a QR code would carry. */
  authUrl: z.string(),
});
export type TfaSetup = z.infer<typeof TfaSetup>;

/** `GET /users/{userId}/tfa` and the answer of enable: the user's two-factor state. */
export const TfaStatus = z.object({
  tfaEnabled: z.boolean(),
  /** Set-up prepared but not yet confirmed with a code. */
  isPending: z.boolean(),
  /** The account requires two-factor for everyone: it cannot be switched off. */
  accountRequiresTfa: z.boolean(),
});
export type TfaStatus = z.infer<typeof TfaStatus>;
