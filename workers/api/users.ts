import { createRoute, z } from "@hono/zod-openapi";
import { UserIdParams } from "~/lib/schemas/api-token";
import {
  ActivityList,
  CreateUserBody,
  FavoriteList,
  PermissionsBody,
  PermissionView,
  UpdateUserBody,
  UserDetail,
  UserList,
  UserListQuery,
} from "~/lib/schemas/users";
import { sessionCookie } from "~/services/session-cookie.server";
import {
  createUser,
  deleteUser,
  getPermissions,
  getUser,
  hasChangeNotification,
  isFavorite,
  listFavorites,
  listUserRevisions,
  listUsers,
  readAvatar,
  setChangeNotification,
  setFavorite,
  setPermissions,
  updateUser,
  uploadAvatar,
} from "~/services/users.server";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Users"];
const UserSiteParams = UserIdParams.extend({ siteId: z.string().min(1).max(64) });
const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const list = createRoute({
  method: "get", path: "/users", tags, security: signedIn, summary: "The people of the account (admins): owners, admins, then client users; search by name or email",
  request: { query: UserListQuery },
  responses: { 200: jsonResponse(UserList, "users, count, offset, limit"), ...errorResponses(400, 401, 403) },
});

const create = createRoute({
  method: "post", path: "/users", tags, security: signedIn, summary: "Invite a person: creates the user, sets permissions, queues the welcome email",
  request: { body: jsonBody(CreateUserBody) },
  responses: { 200: jsonResponse(UserDetail, "The new user"), ...errorResponses(400, 401, 403, 409) },
});

const read = createRoute({
  method: "get", path: "/users/{userId}", tags, security: signedIn, summary: "A person of the account",
  request: { params: UserIdParams },
  responses: { 200: jsonResponse(UserDetail, "The user"), ...errorResponses(401, 403, 404) },
});

const update = createRoute({
  method: "put", path: "/users/{userId}", tags, security: signedIn,
  summary: "Profile fields (name, email, avatar, bio, password with currentPassword) or, for those who manage users, admin flags and permissions",
  request: { params: UserIdParams, body: jsonBody(UpdateUserBody) },
  responses: { 200: jsonResponse(UserDetail, "The changed user"), ...errorResponses(400, 401, 403, 404, 409) },
});

const remove = createRoute({
  method: "delete", path: "/users/{userId}", tags, security: signedIn, summary: "Delete a person (not oneself; an owner only by an owner)",
  request: { params: UserIdParams },
  responses: { 204: { description: "Deleted" }, ...errorResponses(401, 403, 404) },
});

const activity = createRoute({
  method: "get", path: "/users/{userId}/revisions", tags, security: signedIn, summary: "The person's drafts and published revisions, newest first",
  request: { params: UserIdParams, query: PageQuery },
  responses: { 200: jsonResponse(ActivityList, "revisions, count, offset, limit"), ...errorResponses(400, 401, 403, 404) },
});

const getPerms = createRoute({
  method: "get", path: "/users/{userId}/permissions", tags, security: signedIn, summary: "The person's site grants; pages null means all pages",
  request: { params: UserIdParams },
  responses: { 200: jsonResponse(z.object({ permissions: z.array(PermissionView) }), "permissions"), ...errorResponses(401, 403, 404) },
});

const putPerms = createRoute({
  method: "put", path: "/users/{userId}/permissions", tags, security: signedIn, summary: "Replace the person's site grants",
  request: { params: UserIdParams, body: jsonBody(PermissionsBody) },
  responses: { 200: jsonResponse(z.object({ permissions: z.array(PermissionView) }), "permissions"), ...errorResponses(400, 401, 403, 404) },
});

const putAvatar = createRoute({
  method: "put", path: "/users/{userId}/avatar", tags, security: signedIn, summary: "Upload the cropped avatar (a PNG, at most 2 MB), stored in R2",
  request: { params: UserIdParams, body: { content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } }, required: true } },
  responses: { 200: jsonResponse(UserDetail, "The user with the new avatar"), ...errorResponses(400, 401, 403, 404) },
});

const getAvatar = createRoute({
  method: "get", path: "/users/{userId}/avatar", tags, security: signedIn, summary: "The uploaded avatar (PNG)",
  request: { params: UserIdParams },
  responses: { 200: { description: "The picture", content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } } }, ...errorResponses(401, 404) },
});

const favoritesList = createRoute({
  method: "get", path: "/users/{userId}/favorites", tags, security: signedIn, summary: "The user's favorite sites, by name",
  request: { params: UserIdParams, query: z.object({ sortBy: z.enum(["name"]).default("name") }) },
  responses: { 200: jsonResponse(FavoriteList, "favorites, each with its site"), ...errorResponses(400, 401, 404) },
});

const favoriteGet = createRoute({
  method: "get", path: "/users/{userId}/favorites/{siteId}", tags, security: signedIn, summary: "Whether the site is a favorite",
  request: { params: UserSiteParams },
  responses: { 200: jsonResponse(z.object({ isFavorite: z.boolean() }), "isFavorite"), ...errorResponses(401, 404) },
});

const favoritePost = createRoute({
  method: "post", path: "/users/{userId}/favorites/{siteId}", tags, security: signedIn, summary: "Add the site to the favorites",
  request: { params: UserSiteParams },
  responses: { 204: { description: "Added" }, ...errorResponses(401, 404) },
});

const favoriteDelete = createRoute({
  method: "delete", path: "/users/{userId}/favorites/{siteId}", tags, security: signedIn, summary: "Remove the site from the favorites",
  request: { params: UserSiteParams },
  responses: { 204: { description: "Removed" }, ...errorResponses(401, 404) },
});

const notificationGet = createRoute({
  method: "get", path: "/users/{userId}/change-notifications/{siteId}", tags, security: signedIn, summary: "Whether the user is emailed when a page of the site is published",
  request: { params: UserSiteParams },
  responses: { 200: jsonResponse(z.object({ hasChangeNotification: z.boolean() }), "hasChangeNotification"), ...errorResponses(401, 404) },
});

const notificationPost = createRoute({
  method: "post", path: "/users/{userId}/change-notifications/{siteId}", tags, security: signedIn, summary: "Email me when a page of the site is published (agency plan)",
  request: { params: UserSiteParams },
  responses: { 204: { description: "On" }, ...errorResponses(401, 403, 404) },
});

const notificationDelete = createRoute({
  method: "delete", path: "/users/{userId}/change-notifications/{siteId}", tags, security: signedIn, summary: "Stop the change notification",
  request: { params: UserSiteParams },
  responses: { 204: { description: "Off" }, ...errorResponses(401, 404) },
});

export const usersApi = createApi()
  .openapi(list, async (c) => c.json(await listUsers(c.var.ctx, c.req.valid("query")), 200))
  .openapi(create, async (c) => c.json(await createUser(c.var.ctx, c.req.valid("json")), 200))
  .openapi(read, async (c) => c.json(await getUser(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(update, async (c) => {
    const { user, sessionToken } = await updateUser(c.var.ctx, c.req.valid("param").userId, c.req.valid("json"));
    // A password change ended every session of the user; the caller gets a new one (SECURITY.md 10).
    if (sessionToken) c.header("Set-Cookie", sessionCookie(c.req.raw, sessionToken));
    return c.json(user, 200);
  })
  .openapi(remove, async (c) => {
    await deleteUser(c.var.ctx, c.req.valid("param").userId);
    return c.body(null, 204);
  })
  .openapi(activity, async (c) => c.json(await listUserRevisions(c.var.ctx, c.req.valid("param").userId, c.req.valid("query")), 200))
  .openapi(getPerms, async (c) => c.json(await getPermissions(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(putPerms, async (c) => c.json(await setPermissions(c.var.ctx, c.req.valid("param").userId, c.req.valid("json").permissions), 200))
  .openapi(putAvatar, async (c) => c.json(await uploadAvatar(c.var.ctx, c.req.valid("param").userId, await c.req.arrayBuffer()), 200))
  .openapi(getAvatar, async (c) => {
    const body = await readAvatar(c.var.ctx, c.req.valid("param").userId);
    return c.body(body, 200, { "Content-Type": "image/png", "Cache-Control": "private, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" });
  })
  .openapi(favoritesList, async (c) => c.json(await listFavorites(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(favoriteGet, async (c) => {
    const { userId, siteId } = c.req.valid("param");
    return c.json(await isFavorite(c.var.ctx, userId, siteId), 200);
  })
  .openapi(favoritePost, async (c) => {
    const { userId, siteId } = c.req.valid("param");
    await setFavorite(c.var.ctx, userId, siteId, true);
    return c.body(null, 204);
  })
  .openapi(favoriteDelete, async (c) => {
    const { userId, siteId } = c.req.valid("param");
    await setFavorite(c.var.ctx, userId, siteId, false);
    return c.body(null, 204);
  })
  .openapi(notificationGet, async (c) => {
    const { userId, siteId } = c.req.valid("param");
    return c.json(await hasChangeNotification(c.var.ctx, userId, siteId), 200);
  })
  .openapi(notificationPost, async (c) => {
    const { userId, siteId } = c.req.valid("param");
    await setChangeNotification(c.var.ctx, userId, siteId, true);
    return c.body(null, 204);
  })
  .openapi(notificationDelete, async (c) => {
    const { userId, siteId } = c.req.valid("param");
    await setChangeNotification(c.var.ctx, userId, siteId, false);
    return c.body(null, 204);
  });
