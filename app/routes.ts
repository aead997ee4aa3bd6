import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/** The route table of the spec (section 2); screens arrive with the issues that build them. */
export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("login/tfa", "routes/login-tfa.tsx"),
  route("login/recover/tfa", "routes/recover-tfa.tsx"),
  route("tfa", "routes/enable-tfa.tsx"),
  route("login/recover", "routes/login-recover.tsx"),
  route("login/reset", "routes/login-reset.tsx"),
  route("welcome", "routes/welcome.tsx"),
  route("logout", "routes/logout.tsx"),
  route("language", "routes/language.tsx"),
  route("admin/sudo/exit", "routes/admin-sudo-exit.tsx"),
  layout("routes/authenticated.tsx", [route("sites", "routes/sites.tsx"), route("sites/new", "routes/sites-new.tsx"), route("sites/:siteId", "routes/site.tsx"),
    route("sites/:siteId/edit", "routes/sites-edit.tsx"), route("admin", "routes/admin.tsx"), route("profile", "routes/profile.tsx"),
    route("users", "routes/users.tsx"), route("users/new", "routes/users-new.tsx"), route("users/:userId", "routes/users-view.tsx"), route("users/:userId/edit", "routes/users-edit.tsx")]),
  // The page editor: full screen, no app shell (its own guard in the module).
  route("sites/:siteId/pages/:pageId", "routes/edit-page.tsx", { id: "edit-page" }),
  route("sites/:siteId/pages/:pageId/revisions/:revisionId", "routes/edit-page.tsx", { id: "edit-revision" }),
  route("sites/:siteId/pages/:pageId/source", "routes/edit-source.tsx"),
  // A developer tool: 404 unless DEV_MAILBOX is "true" (never in production).
  route("dev/mailbox", "routes/dev-mailbox.tsx"),
  // Unmatched paths must still run the root middleware (STACK.md G8).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
