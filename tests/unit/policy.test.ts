import { describe, expect, it } from "vitest";
import type { User } from "../../db/schema";
import { clearAdminOnlyFlags, effectiveFlags, pickWritable, writableUserFields } from "~/services/policy";

const user = (fields: Partial<User>): User => ({
  id: "u", accountId: "a", name: "N", email: "n@example.test", avatar: null, bio: null, passwordHash: null, lastSeenAt: null,
  isAdmin: false, isOwner: false, isSuperuser: false, requiresTfa: false, tfaEnabled: false, canManageBilling: false,
  canManageSettings: false, canManageSites: false, canManageUsers: false, failedLoginCount: 0, lockedUntilReset: false,
  createdAt: new Date(0), confirmedAt: null, ...fields,
});

const everything = {
  name: "X", email: "x@example.test", avatar: "a.png", bio: "b", password: "p".repeat(10), isAdmin: true,
  canManageBilling: true, canManageSettings: true, canManageSites: true, canManageUsers: true, permissions: [],
  isOwner: true, isSuperuser: true, accountId: "other", requiresTfa: true, tfaEnabled: false,
};

describe("writable user fields (mass assignment)", () => {
  const owner = user({ id: "owner", isOwner: true });
  const manager = user({ id: "manager", isAdmin: true, canManageUsers: true });
  const plainAdmin = user({ id: "admin", isAdmin: true });
  const client = user({ id: "client" });

  it("lets a client change only their own profile fields", () => {
    expect(Object.keys(pickWritable(everything, writableUserFields({ user: client }, client))).sort()).toEqual(["avatar", "bio", "email", "name", "password"]);
    expect(writableUserFields({ user: client }, manager).size).toBe(0);
  });

  it("never lets an admin raise their own privileges", () => {
    const own = pickWritable(everything, writableUserFields({ user: manager }, manager));
    expect(own).not.toHaveProperty("canManageBilling");
    expect(own).not.toHaveProperty("isAdmin");
  });

  it("lets a user manager set admin flags on others of the account, but not on the owner, nor their password", () => {
    const onClient = pickWritable(everything, writableUserFields({ user: manager }, client));
    expect(onClient).toMatchObject({ isAdmin: true, canManageUsers: true, permissions: [] });
    expect(onClient).not.toHaveProperty("password");
    expect(pickWritable(everything, writableUserFields({ user: manager }, owner))).not.toHaveProperty("isAdmin");
    expect(writableUserFields({ user: manager }, user({ id: "elsewhere", accountId: "b" })).size).toBe(0);
  });

  it("needs the manage-users privilege: a plain admin cannot set flags; an owner can", () => {
    expect(pickWritable(everything, writableUserFields({ user: plainAdmin }, client))).toEqual({});
    expect(pickWritable(everything, writableUserFields({ user: owner }, client))).toHaveProperty("canManageBilling", true);
  });

  it("never writes isOwner, isSuperuser, accountId or requiresTfa for anyone", () => {
    for (const actor of [owner, manager, plainAdmin, client]) {
      for (const target of [owner, manager, plainAdmin, client]) {
        const picked = pickWritable(everything, writableUserFields({ user: actor }, target));
        for (const forbidden of ["isOwner", "isSuperuser", "accountId", "requiresTfa", "tfaEnabled"]) expect(picked).not.toHaveProperty(forbidden);
      }
    }
  });
});

describe("flags", () => {
  it("gives an owner every capability and a client none", () => {
    expect(Object.values(effectiveFlags(user({ isOwner: true })))).toEqual([true, true, true, true]);
    expect(Object.values(effectiveFlags(user({ canManageBilling: true })))).toEqual([false, false, false, false]);
  });

  it("clears admin-only flags when admin is turned off", () => {
    expect(clearAdminOnlyFlags({ isAdmin: false, canManageSites: true, canManageUsers: true })).toEqual({
      isAdmin: false, canManageBilling: false, canManageSettings: false, canManageSites: false, canManageUsers: false,
    });
    expect(clearAdminOnlyFlags({ isAdmin: true, canManageSites: true })).toEqual({ isAdmin: true, canManageSites: true });
  });
});
