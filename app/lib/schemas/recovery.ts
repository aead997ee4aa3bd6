import { z } from "zod";

/** No control characters (line breaks included): these texts become a mail header or a button label. */
const SINGLE_LINE = /^[^\p{Cc}]*$/u;

/**
 * The texts of a link email (spec section 7: subject, intro, callToAction, outro). They come from
 * the client in the user's language and are plain text: the template escapes every one of them.
 */
export const EmailMessage = z.object({
  subject: z.string().trim().min(1).max(200).regex(SINGLE_LINE),
  intro: z.string().trim().max(2000).default(""),
  callToAction: z.string().trim().min(1).max(100).regex(SINGLE_LINE),
  outro: z.string().trim().max(2000).default(""),
});
export type EmailMessage = z.infer<typeof EmailMessage>;

const email = z.string().trim().min(1).max(320);
const token = z.string().min(1).max(200);
/** Length rules (PASSWORD_TOO_SHORT) are the service's, so the code matches the spec's message. */
const password = z.string().max(1024);

/** `POST /auth/password/recover` */
export const RecoverPasswordBody = z.object({ email, message: EmailMessage });
export type RecoverPasswordBody = z.infer<typeof RecoverPasswordBody>;

/** `POST /auth/password/reset` */
export const ResetPasswordBody = z.object({ token, password });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/**
 * `POST /auth/confirm`. The spec lists a message here too; it is accepted and validated, but
 * confirming sends no mail, so it is not used.
 */
export const ConfirmWelcomeBody = z.object({ token, password, message: EmailMessage.optional() });
export type ConfirmWelcomeBody = z.infer<typeof ConfirmWelcomeBody>;

/** `POST /auth/password/verify` */
export const VerifyPasswordBody = z.object({ email, password: z.string().min(1).max(1024) });
export type VerifyPasswordBody = z.infer<typeof VerifyPasswordBody>;
