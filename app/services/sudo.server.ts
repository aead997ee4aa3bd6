import { eq } from "drizzle-orm";
import { sessions, users } from "../../db/schema";
import { AppError } from "~/lib/errors";
import { sha256Hex } from "~/lib/tokens";
import { auditStatement } from "./audit.server";
import { createSession } from "./auth.server";
import type { ServiceContext } from "./context.server";
import { requireSignedIn, requireSuperuser } from "./policy";

/** Deletes the session being replaced (a new id on entering and leaving sudo: SECURITY.md 10). */
function endSessionStatement(ctx: ServiceContext, tokenHash: string) {
  return ctx.db.delete(sessions).where(eq(sessions.id, tokenHash));
}

/**
 * Superuser "Sudo Login": the superuser's session is replaced by a new one acting as the target
 * user, tagged with the superuser's id (so every action is attributable and audited).
 *
 * @example const token = await startSudo(ctx, targetUserId, currentSessionToken);
 */
export async function startSudo(ctx: ServiceContext, targetUserId: string, currentSessionToken: string | null): Promise<string> {
  const superuser = requireSuperuser(ctx);
  if (targetUserId === superuser.user.id) throw new AppError("VALIDATION_ERROR", { invalid: ["userId"] });
  const target = await ctx.db.select().from(users).where(eq(users.id, targetUserId)).get();
  if (!target) throw new AppError("NOT_FOUND");
  if (target.isSuperuser) throw new AppError("FORBIDDEN");
  const oldHash = currentSessionToken ? await sha256Hex(currentSessionToken) : "";
  const token = await createSession(ctx, target, { tfaVerified: true, sudoUserId: superuser.user.id });
  await ctx.db.batch([
    auditStatement(ctx, { accountId: target.accountId, actorUserId: target.id, sudoUserId: superuser.user.id, action: "sudo.start", entity: "user", entityId: target.id }),
    endSessionStatement(ctx, oldHash),
  ]);
  return token;
}

/** Exit Sudo Mode: back to the superuser's own session, with a new id. */
export async function endSudo(ctx: ServiceContext, currentSessionToken: string | null): Promise<string> {
  const actor = requireSignedIn(ctx);
  const superuserId = actor.session?.sudoUserId;
  if (!superuserId) throw new AppError("FORBIDDEN");
  const oldHash = currentSessionToken ? await sha256Hex(currentSessionToken) : "";
  const token = await createSession(ctx, { id: superuserId }, { tfaVerified: true });
  await ctx.db.batch([
    auditStatement(ctx, { action: "sudo.end", entity: "user", entityId: actor.user.id }),
    endSessionStatement(ctx, oldHash),
  ]);
  return token;
}
