import { auditLog } from "../../db/schema";
import type { ServiceContext } from "./context.server";

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | null;
  /** Never secrets: write-only fields are named, not valued. */
  details?: Record<string, unknown>;
}

/**
 * Records what the actor did, tagged with the superuser behind a sudo session (SECURITY.md 12).
 *
 * @example await audit(ctx, { action: "site.update", entity: "site", entityId: site.id });
 */
export function auditStatement(ctx: ServiceContext, entry: AuditEntry & { accountId?: string; actorUserId?: string | null; sudoUserId?: string | null }) {
  const actor = ctx.actor;
  return ctx.db.insert(auditLog).values({
    accountId: entry.accountId ?? actor!.account.id,
    actorUserId: entry.actorUserId !== undefined ? entry.actorUserId : (actor?.user.id ?? null),
    sudoUserId: entry.sudoUserId !== undefined ? entry.sudoUserId : (actor?.session?.sudoUserId ?? null),
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    details: entry.details ?? null,
    ip: ctx.request.ip,
  });
}

export async function audit(ctx: ServiceContext, entry: Parameters<typeof auditStatement>[1]): Promise<void> {
  await auditStatement(ctx, entry);
}

/** Every state-changing request made in a sudo session is recorded, whatever it did. */
export async function auditSudoRequest(ctx: ServiceContext, method: string, status: number): Promise<void> {
  if (!ctx.actor?.session?.sudoUserId || method === "GET" || method === "HEAD") return;
  await audit(ctx, { action: "sudo.request", entity: "request", details: { method, path: ctx.request.url.pathname, status } });
}
