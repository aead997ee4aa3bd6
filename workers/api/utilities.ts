import { createRoute, z } from "@hono/zod-openapi";
import { OembedAnswer, OembedQuery } from "~/lib/schemas/oembed";
import { RemoteFileSchema } from "~/lib/schemas/site-connection";
import { browseFormServer, testFormConnection } from "~/services/connection-check.server";
import { GRAVATAR_DEFAULT_SIZE, gravatarUrl } from "~/services/gravatar.server";
import { lookupOembed } from "~/services/oembed.server";
import { createApi, ErrorSchema, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const getGravatar = createRoute({
  method: "get", path: "/utilities/gravatar", tags: ["Utilities"], security: signedIn,
  summary: "The Gravatar URL of an email address; with verify, null when it has none",
  request: {
    query: z.object({
      email: z.string().trim().min(3).max(320),
      size: z.coerce.number().int().min(16).max(2048).default(GRAVATAR_DEFAULT_SIZE),
      verify: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
    }),
  },
  responses: { 200: jsonResponse(z.object({ url: z.string().nullable() }), "The URL, or null"), ...errorResponses(400, 401) },
});

const getOembed = createRoute({
  method: "get", path: "/utilities/oembed", tags: ["Utilities"], security: signedIn,
  summary: "The embed code of a video or post address, from its provider's oEmbed endpoint (the Video panel)",
  request: { query: OembedQuery },
  responses: {
    200: jsonResponse(OembedAnswer, "oEmbed: type (video, rich or photo), html, title, providerName, width, height, thumbnailUrl"),
    ...errorResponses(400, 401),
    502: jsonResponse(ErrorSchema, "No known provider serves the address, or its answer is unusable (OEMBED_LOOKUP_FAILED): insert the text as embed code"),
  },
});

/** The site form's connection fields (protocol, host, port, username, password, privateKey, s3…, homeFolder, agentId); checked by the operation, after the policy. */
const SiteConnectionFormBody = z
  .object({ protocol: z.string().optional() })
  .catchall(z.unknown())
  .openapi("SiteConnectionForm", { description: "The site form: protocol, host, port, username, password, privateKey, s3AccessKey, s3SecretKey, s3Region, s3Bucket, s3Acl, homeFolder, agentId" });

const agentFailures = {
  502: jsonResponse(z.object({ code: z.string(), invalid: z.array(z.string()) }), "The server refused or could not be reached (CONNECTION_AGENT_CONNECT, _AUTH, _LIST)"),
  503: jsonResponse(z.object({ code: z.string(), invalid: z.array(z.string()) }), "No connection agent is connected (CONNECTION_AGENT_OFFLINE)"),
  504: jsonResponse(z.object({ code: z.string(), invalid: z.array(z.string()) }), "The agent did not answer in time (CONNECTION_AGENT_TIMEOUT)"),
};

const getFormFiles = createRoute({
  method: "get", path: "/utilities/files", tags: ["Utilities"], security: signedIn,
  summary: "Browse the server of an unsaved site form (the form as JSON in the Target-Server header)",
  request: {
    query: z.object({ path: z.string().max(4096).optional() }),
    headers: z.object({ "target-server": z.string().max(65_536).optional().openapi({ description: "The site form as JSON" }) }),
  },
  responses: {
    200: jsonResponse(z.object({ files: z.array(RemoteFileSchema) }), "The folder's entries, folders first"),
    ...errorResponses(400, 401, 403, 404),
    ...agentFailures,
  },
});

const postTestConnection = createRoute({
  method: "post", path: "/utilities/test-connection", tags: ["Utilities"], security: signedIn,
  summary: "Test the connection of a site form: connect and list the home folder",
  request: { body: jsonBody(SiteConnectionFormBody) },
  responses: {
    200: jsonResponse(
      z.object({
        ok: z.literal(true),
        files: z.array(RemoteFileSchema),
        pins: z.object({ sftpHostKey: z.string().optional(), ftpsCertFingerprint: z.string().optional() }),
      }),
      "Connected; the home folder's entries and the server's key fingerprints",
    ),
    ...errorResponses(400, 401, 403),
    ...agentFailures,
  },
});

export const utilitiesApi = createApi()
  .openapi(getGravatar, async (c) => c.json(await gravatarUrl(c.var.ctx, c.req.valid("query")), 200))
  .openapi(getOembed, async (c) => {
    const { url, maxwidth, maxheight } = c.req.valid("query");
    return c.json(await lookupOembed(c.var.ctx, { url, maxWidth: maxwidth, maxHeight: maxheight }), 200);
  })
  .openapi(getFormFiles, async (c) =>
    c.json(await browseFormServer(c.var.ctx, { targetServer: c.req.valid("header")["target-server"], path: c.req.valid("query").path }), 200),
  )
  .openapi(postTestConnection, async (c) => c.json(await testFormConnection(c.var.ctx, c.req.valid("json")), 200));
