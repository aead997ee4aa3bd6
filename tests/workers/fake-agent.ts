import { env, SELF } from "cloudflare:test";
import { expect } from "vitest";
import { bodyHeader, chunkFrames, type CallMessage } from "../../agent/src/protocol.ts";
import { agentHub, DEVELOPMENT_HOSTED_AGENT_TOKEN } from "~/services/agent-link.server";

/** What a fake agent answers a call with: a value, an error code, and optionally a body or pins. */
export type FakeReply =
  | { ok: true; value: unknown; body?: Uint8Array; pins?: { sftpHostKey?: string; ftpsCertFingerprint?: string } }
  | { ok: false; error: { code: string; reason?: string } };

/**
 * Connects to the hosted agent's hub over a real WebSocket as an agent that answers every call
 * with `answer` (calls without a body only: test, list, stat, read, rename, remove, mkdirp). Plays
 * the customer's server for operations that go through the agent link; the real agent process is
 * driven in tests/agent. `calls` records what the hub asked.
 *
 * @example const agent = await connectFakeAgent((call) => ({ ok: true, value: [] })); … await agent.disconnect();
 */
export async function connectFakeAgent(answer: (call: CallMessage) => FakeReply) {
  const response = await SELF.fetch("http://localhost/agent/connect", { headers: { Upgrade: "websocket", Authorization: `Bearer ${DEVELOPMENT_HOSTED_AGENT_TOKEN}` } });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  (socket as WebSocket & { binaryType: string }).binaryType = "arraybuffer";
  socket.accept();
  const calls: CallMessage[] = [];
  const welcomed = new Promise<void>((resolve) => {
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      const message = JSON.parse(event.data) as { type: string };
      if (message.type === "welcome") resolve();
      if (message.type !== "call") return;
      const call = message as CallMessage;
      calls.push(call);
      const reply = answer(call);
      const body = reply.ok ? reply.body : undefined;
      socket.send(JSON.stringify({ v: 1, type: "result", id: call.id, ...reply, body: body ? bodyHeader(body) : undefined }));
      if (body) for (const frame of chunkFrames(call.id, body)) socket.send(frame);
    });
  });
  socket.send(JSON.stringify({ v: 1, type: "hello", agent: { version: "test" } }));
  await welcomed;
  return {
    calls,
    async disconnect() {
      try {
        socket.close(1000, "test done");
      } catch {
        // already closed
      }
      await agentHub(env, null).disconnectAll();
    },
  };
}
