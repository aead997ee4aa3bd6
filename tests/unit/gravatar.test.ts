import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "~/lib/tokens";
import type { ServiceContext } from "~/services/context.server";
import { gravatarUrl } from "~/services/gravatar.server";

// A stand-in for gravatar.com that speaks its protocol: 200 for a known hash, 404 (d=404) otherwise.
let server: Server;
let base: string;
let knownHash: string;

beforeAll(async () => {
  knownHash = await sha256Hex("pat@example.com");
  server = createServer((request, response) => {
    const url = new URL(request.url!, "http://x");
    const known = url.pathname === `/avatar/${knownHash}`;
    response.writeHead(known ? 200 : url.searchParams.get("d") === "404" ? 404 : 200, { "Content-Type": "image/png" });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ctx = (signedIn = true, gravatarBase = base) => ({ actor: signedIn ? ({ user: {}, account: {}, session: null, via: "session" } as unknown) : null, env: { GRAVATAR_BASE_URL: gravatarBase } }) as unknown as ServiceContext;

describe("gravatarUrl", () => {
  it("hashes the trimmed, lowercased address and asks for the size", async () => {
    const { url } = await gravatarUrl(ctx(), { email: "  Pat@Example.com ", size: 512, verify: false });
    expect(url).toBe(`${base}/avatar/${knownHash}?s=512&d=mp`);
  });

  it("with verify, answers the URL only when the address has a Gravatar", async () => {
    expect((await gravatarUrl(ctx(), { email: "pat@example.com", size: 64, verify: true })).url).toBe(`${base}/avatar/${knownHash}?s=64&d=404`);
    expect((await gravatarUrl(ctx(), { email: "nobody@example.com", size: 64, verify: true })).url).toBeNull();
  });

  it("answers null without asking anyone when Gravatar is off (an empty base URL, as locally)", async () => {
    let asked = 0;
    server.on("request", () => asked++);
    expect((await gravatarUrl(ctx(true, ""), { email: "pat@example.com", size: 64, verify: true })).url).toBeNull();
    expect((await gravatarUrl(ctx(true, ""), { email: "pat@example.com", size: 64, verify: false })).url).toBeNull();
    expect(asked).toBe(0);
  });

  it("needs a signed-in user", async () => {
    await expect(gravatarUrl(ctx(false), { email: "pat@example.com", size: 64, verify: false })).rejects.toThrow("UNAUTHORIZED");
  });
});
