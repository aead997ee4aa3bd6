import { z } from "zod";

export const AdminUserSearch = z.object({
  search: z.string().max(320).optional().default(""),
  sortBy: z.enum(["role"]).optional(),
});

export const AdminUserRow = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(["owner", "admin", "client"]),
  plan: z.enum(["personal", "business", "agency"]),
  accountId: z.string(),
  createdAt: z.string(),
  hasPaymentCustomer: z.boolean(),
  isSuperuser: z.boolean(),
});
export type AdminUserRow = z.infer<typeof AdminUserRow>;

export const AdminUsers = z.object({ users: z.array(AdminUserRow) });

/** The spec's admin search: trimmed, a leading `mailto:` removed; empty means no search. */
export function normaliseAdminSearch(raw: string): string {
  return raw.trim().replace(/^mailto:/i, "").trim();
}
