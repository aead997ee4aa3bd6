import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small oEmbed provider of our own (oEmbed 1.0, JSON) for the e2e run, since the real ones
 * cannot be reached from here: it answers for `https://video.example/watch/<id>` with an iframe of
 * its own player page (`/player/<id>`), and 404 for anything else. The app's real oEmbed client is
 * pointed at it through `OEMBED_PROVIDERS`.
 */
export async function startOembedProvider(): Promise<{ origin: string; providers: string; close(): Promise<void> }> {
  let origin = "";
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname.startsWith("/player/")) {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end(`<!doctype html><title>Player</title><p>Video ${url.pathname.slice(8)}</p>`);
      return;
    }
    const target = url.searchParams.get("url") ?? "";
    const match = /^https:\/\/video\.example\/watch\/([a-z0-9-]+)$/.exec(target);
    if (url.pathname !== "/oembed" || url.searchParams.get("format") !== "json" || !match) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({
      version: "1.0", type: "video", title: `Video ${match[1]}`, provider_name: "Video Example", width: 480, height: 270,
      html: `<iframe src="${origin}/player/${match[1]}" width="480" height="270" title="Video ${match[1]}" allowfullscreen></iframe>`,
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const providers = JSON.stringify([{ name: "Video Example", endpoint: `${origin}/oembed`, schemes: ["https://video.example/watch/*"] }]);
  return { origin, providers, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
