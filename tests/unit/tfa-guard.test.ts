import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { requireActor, serviceContextKey } from "~/middleware/actor";
import type { Actor } from "~/services/actor.server";
import type { ServiceContext } from "~/services/context.server";
import { requireSignedIn } from "~/services/policy";

/** An actor with just the fields the guards read. */
function actorWith({ tfaVerified = true, tfaEnabled = false, accountRequiresTfa = false, sudo = false } = {}): Actor {
  return {
    user: { id: "u1", tfaEnabled },
    account: { id: "a1", requiresTfa: accountRequiresTfa },
    session: { id: "s1", tfaVerified, sudoUserId: sudo ? "su1" : null },
    via: "session",
  } as unknown as Actor;
}

function contextWith(actor: Actor | null) {
  const context = new RouterContextProvider();
  context.set(serviceContextKey, { actor } as ServiceContext);
  return context;
}

/** Where the guard sends the request, or "pass". */
function guard(actor: Actor | null, path: string, options?: { bypassTfa?: boolean }): string {
  try {
    requireActor(contextWith(actor), new Request(`http://localhost${path}`), options);
    return "pass";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("Location") ?? "no location";
    throw thrown;
  }
}

describe("the Authenticated guard (spec section 2)", () => {
  it("sends visitors who are not signed in to /login, with ?to= unless they asked for /", () => {
    expect(guard(null, "/")).toBe("/login");
    expect(guard(null, "/sites?page=2")).toBe("/login?to=%2Fsites%3Fpage%3D2");
    expect(guard(null, "/tfa", { bypassTfa: true })).toBe("/login?to=%2Ftfa");
  });

  it("sends a session waiting for its two-factor code to /login/tfa", () => {
    const pending = actorWith({ tfaVerified: false, tfaEnabled: true });
    expect(guard(pending, "/sites")).toBe("/login/tfa?to=%2Fsites");
    expect(guard(pending, "/")).toBe("/login/tfa");
  });

  it("sends a user without two-factor in an account that requires it to /tfa", () => {
    const missing = actorWith({ accountRequiresTfa: true });
    expect(guard(missing, "/sites")).toBe("/tfa?to=%2Fsites");
    expect(guard(actorWith({ accountRequiresTfa: true, tfaEnabled: true }), "/sites")).toBe("pass");
    // A superuser in sudo is not that user and cannot set up their two-factor.
    expect(guard(actorWith({ accountRequiresTfa: true, sudo: true }), "/sites")).toBe("pass");
  });

  it("lets the two-factor screens bypass both checks", () => {
    expect(guard(actorWith({ tfaVerified: false, tfaEnabled: true }), "/login/tfa", { bypassTfa: true })).toBe("pass");
    expect(guard(actorWith({ accountRequiresTfa: true }), "/tfa", { bypassTfa: true })).toBe("pass");
  });

  it("passes a fully signed-in user", () => {
    expect(guard(actorWith(), "/sites")).toBe("pass");
  });
});

describe("requireSignedIn and a session pending two-factor", () => {
  it("refuses the pending session unless the call allows it", () => {
    const pending = { actor: actorWith({ tfaVerified: false, tfaEnabled: true }) };
    expect(() => requireSignedIn(pending)).toThrow("UNAUTHORIZED");
    expect(requireSignedIn(pending, { allowPendingTfa: true })).toBe(pending.actor);
    expect(requireSignedIn({ actor: actorWith() })).toBeDefined();
    expect(() => requireSignedIn({ actor: null }, { allowPendingTfa: true })).toThrow("UNAUTHORIZED");
  });
});
