import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/services/context.server";
import { DEFAULT_OEMBED_PROVIDERS, findOembedProvider, lookupOembed, OEMBED_MAX_ANSWER_BYTES } from "~/services/oembed.server";

// A stand-in for a provider's oEmbed endpoint that speaks the protocol (GET /oembed?url=…&format=json).
// The last path segment of the embedded address picks the answer.
let server: Server;
let base: string;
let requests: URL[];

const VIDEO_HTML = '<iframe src="https://video.example/embed/1" width="640" height="360" allowfullscreen></iframe>';

beforeAll(async () => {
  server = createServer((request, response) => {
    response.on("error", () => undefined); // the client may hang up mid-answer (timeout, size cap)
    const requestUrl = new URL(request.url!, "http://x");
    requests.push(requestUrl);
    if (requestUrl.pathname !== "/oembed") return void response.writeHead(404).end();
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    const target = requestUrl.searchParams.get("url") ?? "";
    const maxwidth = Number(requestUrl.searchParams.get("maxwidth") ?? 640);
    switch (target.split("/").pop()) {
      case "video":
      case "abc":
        return json(200, { version: "1.0", type: "video", html: VIDEO_HTML, title: "A video", provider_name: "Video Example", width: maxwidth, height: 360, thumbnail_url: "https://video.example/1.jpg" });
      case "rich-bare":
        return json(200, { version: "1.0", type: "rich", html: "<div>post</div>", width: "100%", height: "200" });
      case "photo":
        return json(200, { version: "1.0", type: "photo", url: 'https://img.example/a.jpg?x=1&y="2"', title: 'Sunset <b> & "friends"', width: 800, height: 600 });
      case "photo-script":
        return json(200, { version: "1.0", type: "photo", url: "javascript:alert(1)", width: 1, height: 1 });
      case "video-no-html":
        return json(200, { version: "1.0", type: "video", width: 640, height: 360 });
      case "link":
        return json(200, { version: "1.0", type: "link", title: "Just a link" });
      case "missing":
        return json(404, "Not Found");
      case "server-error":
        return json(500, { type: "video", html: VIDEO_HTML });
      case "redirect":
        response.writeHead(302, { Location: `/oembed?url=${encodeURIComponent("https://video.example/video")}` });
        return void response.end();
      case "invalid-json":
        return json(200, '{"type": "video", "html": ');
      case "slow":
        return void setTimeout(() => json(200, { type: "video", html: VIDEO_HTML }), 2000).unref();
      case "slow-body":
        response.writeHead(200, { "Content-Type": "application/json" });
        response.write('{"type": "video", ');
        return void setTimeout(() => response.end(`"html": ${JSON.stringify(VIDEO_HTML)}}`), 2000).unref();
      case "huge": {
        // Valid JSON, streamed without Content-Length: only the byte count can stop it.
        response.writeHead(200, { "Content-Type": "application/json" });
        response.write('{"type": "video", "html": "');
        const chunk = "x".repeat(16 * 1024);
        for (let sent = 0; sent <= OEMBED_MAX_ANSWER_BYTES; sent += chunk.length) response.write(chunk);
        return void response.end('"}');
      }
      default:
        return json(404, "Not Found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  requests = [];
});

const localProviders = () =>
  JSON.stringify([
    { name: "Video Example", endpoint: `${base}/oembed`, schemes: ["https://video.example/*"] },
    // An address on the provider's own host, to tell "asked the endpoint" from "fetched the address".
    { name: "Self", endpoint: `${base}/oembed`, schemes: [`${base}/watch/*`] },
  ]);

const ctx = (options: { signedIn?: boolean; providers?: string } = {}) =>
  ({
    actor: options.signedIn === false ? null : ({ user: {}, account: {}, session: null, via: "session" } as unknown),
    env: { OEMBED_PROVIDERS: options.providers ?? localProviders() },
  }) as unknown as ServiceContext;

const lookupFailed = { name: "AppError", code: "OEMBED_LOOKUP_FAILED", status: 502 };

describe("lookupOembed", () => {
  it("answers a video's embed code, asking the provider's endpoint for JSON at the given size", async () => {
    const answer = await lookupOembed(ctx(), { url: "https://video.example/v/video", maxWidth: 480, maxHeight: 270 });
    expect(answer).toEqual({
      oEmbed: { type: "video", html: VIDEO_HTML, title: "A video", providerName: "Video Example", width: 480, height: 360, thumbnailUrl: "https://video.example/1.jpg" },
    });
    expect(requests).toHaveLength(1);
    expect(requests[0].pathname).toBe("/oembed");
    expect(Object.fromEntries(requests[0].searchParams)).toEqual({ url: "https://video.example/v/video", format: "json", maxwidth: "480", maxheight: "270" });
  });

  it("leaves maxwidth and maxheight out when not given, and answers nulls for what the provider leaves out", async () => {
    const { oEmbed } = await lookupOembed(ctx(), { url: "https://video.example/rich-bare" });
    expect(Object.fromEntries(requests[0].searchParams)).toEqual({ url: "https://video.example/rich-bare", format: "json" });
    // "100%" is no pixel size; the provider name falls back to the configured one.
    expect(oEmbed).toEqual({ type: "rich", html: "<div>post</div>", title: null, providerName: "Video Example", width: null, height: 200, thumbnailUrl: null });
  });

  it("builds an <img> for a photo, with its address and title escaped", async () => {
    const { oEmbed } = await lookupOembed(ctx(), { url: "https://video.example/photo" });
    expect(oEmbed.type).toBe("photo");
    expect(oEmbed.html).toBe('<img src="https://img.example/a.jpg?x=1&amp;y=&quot;2&quot;" alt="Sunset &lt;b&gt; &amp; &quot;friends&quot;" width="800" height="600">');
    expect(oEmbed).toMatchObject({ title: 'Sunset <b> & "friends"', width: 800, height: 600 });
  });

  it("asks only the configured endpoint, never the address itself", async () => {
    const address = `${base}/watch/abc`;
    const { oEmbed } = await lookupOembed(ctx(), { url: address });
    expect(oEmbed.html).toBe(VIDEO_HTML);
    expect(requests.map((r) => r.pathname)).toEqual(["/oembed"]);
    expect(requests[0].searchParams.get("url")).toBe(address);
  });

  it.each([
    ["a link answer", "link"],
    ["a photo whose address is not http(s)", "photo-script"],
    ["a video without html", "video-no-html"],
    ["a 404", "missing"],
    ["a 500", "server-error"],
    ["invalid JSON", "invalid-json"],
  ])("fails on %s", async (_, answer) => {
    await expect(lookupOembed(ctx(), { url: `https://video.example/${answer}` })).rejects.toMatchObject(lookupFailed);
    expect(requests).toHaveLength(1);
  });

  it("does not follow a redirect", async () => {
    await expect(lookupOembed(ctx(), { url: "https://video.example/redirect" })).rejects.toMatchObject(lookupFailed);
    expect(requests).toHaveLength(1);
  });

  it("gives up on an answer larger than the cap", async () => {
    await expect(lookupOembed(ctx(), { url: "https://video.example/huge" })).rejects.toMatchObject(lookupFailed);
  });

  it("gives up when the provider is too slow to answer, or to finish its answer", async () => {
    const started = Date.now();
    await expect(lookupOembed(ctx(), { url: "https://video.example/slow" }, { timeoutMs: 200 })).rejects.toMatchObject(lookupFailed);
    await expect(lookupOembed(ctx(), { url: "https://video.example/slow-body" }, { timeoutMs: 200 })).rejects.toMatchObject(lookupFailed);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("fails when the provider cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const providers = JSON.stringify([{ name: "Gone", endpoint: `http://127.0.0.1:${port}/oembed`, schemes: ["https://video.example/*"] }]);
    await expect(lookupOembed(ctx({ providers }), { url: "https://video.example/video" })).rejects.toMatchObject(lookupFailed);
  });

  it("fails without asking anyone when no provider serves the address", async () => {
    for (const url of ["https://unknown.example/video", "https://video.example.evil.test/video", "ftp://video.example/video", "not a url"]) {
      await expect(lookupOembed(ctx(), { url }), url).rejects.toMatchObject(lookupFailed);
    }
    // The built-in registry knows no such site either.
    await expect(lookupOembed(ctx({ providers: "" }), { url: "https://unknown.example/video" })).rejects.toMatchObject(lookupFailed);
    expect(requests).toHaveLength(0);
  });

  it("needs a signed-in user", async () => {
    await expect(lookupOembed(ctx({ signedIn: false }), { url: "https://video.example/video" })).rejects.toThrow("UNAUTHORIZED");
    expect(requests).toHaveLength(0);
  });

  it("treats an invalid OEMBED_PROVIDERS as a configuration error, not a failed lookup", async () => {
    for (const providers of ["[{ not json", '{"name": "not a list"}', JSON.stringify([{ name: "No schemes", endpoint: `${base}/oembed`, schemes: [] }])]) {
      const failure = await lookupOembed(ctx({ providers }), { url: "https://video.example/video" }).catch((error: unknown) => error);
      expect(failure, providers).toBeInstanceOf(Error);
      expect(failure, providers).not.toBeInstanceOf(AppError);
      expect((failure as Error).message, providers).toMatch(/^OEMBED_PROVIDERS /);
    }
    expect(requests).toHaveLength(0);
  });
});

describe("the built-in providers", () => {
  const endpointFor = (url: string) => findOembedProvider(new URL(url))?.endpoint ?? null;

  it("match the addresses people paste from each service", () => {
    const youtube = "https://www.youtube.com/oembed";
    expect(endpointFor("https://www.youtube.com/watch?v=dQw4w9WgXcQ")).toBe(youtube);
    expect(endpointFor("https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s")).toBe(youtube);
    expect(endpointFor("https://m.youtube.com/watch?v=dQw4w9WgXcQ")).toBe(youtube);
    expect(endpointFor("http://www.youtube.com/watch?v=dQw4w9WgXcQ")).toBe(youtube);
    expect(endpointFor("https://www.youtube.com/shorts/aqz-KE-bpKQ")).toBe(youtube);
    expect(endpointFor("https://youtube.com/shorts/aqz-KE-bpKQ?feature=share")).toBe(youtube);
    expect(endpointFor("https://youtu.be/dQw4w9WgXcQ")).toBe(youtube);
    expect(endpointFor("https://WWW.YouTube.com/embed/dQw4w9WgXcQ")).toBe(youtube);
    expect(endpointFor("https://vimeo.com/76979871")).toBe("https://vimeo.com/api/oembed.json");
    expect(endpointFor("https://player.vimeo.com/video/76979871")).toBe("https://vimeo.com/api/oembed.json");
    expect(endpointFor("https://www.dailymotion.com/video/x8abcd1")).toBe("https://www.dailymotion.com/services/oembed");
    expect(endpointFor("https://dai.ly/x8abcd1")).toBe("https://www.dailymotion.com/services/oembed");
    expect(endpointFor("https://soundcloud.com/forss/flickermood")).toBe("https://soundcloud.com/oembed");
    expect(endpointFor("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC")).toBe("https://open.spotify.com/oembed");
    expect(endpointFor("https://www.ted.com/talks/ken_robinson_do_schools_kill_creativity")).toBe("https://www.ted.com/services/v1/oembed.json");
    expect(endpointFor("https://www.flickr.com/photos/bees/2341623661/")).toBe("https://www.flickr.com/services/oembed/");
    expect(endpointFor("https://flic.kr/p/4AK2sc")).toBe("https://www.flickr.com/services/oembed/");
    expect(endpointFor("https://www.slideshare.net/haraldf/business-quotes-for-2011")).toBe("https://www.slideshare.net/api/oembed/2");
    expect(endpointFor("https://www.mixcloud.com/spartacus/party-time/")).toBe("https://app.mixcloud.com/oembed/");
    expect(endpointFor("https://www.kickstarter.com/projects/1234/some-project")).toBe("https://www.kickstarter.com/services/oembed");
  });

  it("match only the service's own hosts, whole labels only", () => {
    for (const url of [
      "https://evil.example/?next=www.youtube.com/watch",
      "https://evil.example/www.youtube.com/watch?v=1",
      "https://youtube.com.evil.example/watch?v=1",
      "https://notyoutube.com/watch?v=1",
      "https://youtu.be.evil.example/dQw4w9WgXcQ",
      "https://www.youtube.com/feed/trending",
      "ftp://youtu.be/dQw4w9WgXcQ",
      "https://example.com/video",
    ]) {
      expect(endpointFor(url), url).toBeNull();
    }
  });

  it("point at public https endpoints", () => {
    expect(DEFAULT_OEMBED_PROVIDERS.map((p) => p.name)).toEqual(
      expect.arrayContaining(["YouTube", "Vimeo", "Dailymotion", "SoundCloud", "Spotify", "TED", "Flickr", "SlideShare", "Mixcloud", "Kickstarter"]),
    );
    for (const provider of DEFAULT_OEMBED_PROVIDERS) expect(new URL(provider.endpoint).protocol, provider.name).toBe("https:");
  });
});
