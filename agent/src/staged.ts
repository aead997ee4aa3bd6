/**
 * Fetching a staged upload: the Worker keeps a browser's upload in R2 and asks the agent to write
 * it (`writeStaged`). The agent downloads it from the app it is linked to, with its own token, and
 * checks size and SHA-256 before anything reaches the customer's server.
 *
 * @example
 * const bytes = await fetchStaged({ linkUrl: "wss://app.example.com/agent/connect", token, key: "hosted/abc…", size: 1234, sha256: "…" });
 */
import { createHash } from "node:crypto";
import { AgentError } from "./errors.ts";
import { MAX_BODY_BYTES } from "./protocol.ts";

/** Where a staged key is fetched: the link's own origin (ws→http, wss→https), path /agent/staged/<key>. */
export function stagedUrl(linkUrl: string, key: string): string {
  const url = new URL(linkUrl);
  url.protocol = url.protocol === "wss:" ? "https:" : "http:";
  url.pathname = `/agent/staged/${key}`;
  url.search = "";
  url.hash = "";
  return url.toString();
}

export interface StagedRequest {
  linkUrl: string;
  token: string;
  key: string;
  size: number;
  sha256: string;
  timeoutMs?: number;
}

/** The staged bytes, verified; CONNECTION_AGENT_UPLOAD when they cannot be fetched or do not match. */
export async function fetchStaged(request: StagedRequest): Promise<Uint8Array> {
  const fail = (reason: string, cause?: unknown) => new AgentError("CONNECTION_AGENT_UPLOAD", `Staged upload ${request.key}: ${reason}`, { reason, cause });
  let response: Response;
  try {
    response = await fetch(stagedUrl(request.linkUrl, request.key), {
      headers: { Authorization: `Bearer ${request.token}` },
      signal: AbortSignal.timeout(request.timeoutMs ?? 45_000),
      redirect: "error",
    });
  } catch (error) {
    throw fail("STAGED_FETCH_FAILED", error);
  }
  if (!response.ok || !response.body) throw fail(`STAGED_HTTP_${response.status}`);
  // Count what arrives, not what the header says (SECURITY.md 17).
  const limit = Math.min(request.size, MAX_BODY_BYTES);
  const bytes = new Uint8Array(limit);
  let received = 0;
  const hash = createHash("sha256");
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (received + chunk.byteLength > limit) throw fail("STAGED_SIZE_MISMATCH");
    bytes.set(chunk, received);
    hash.update(chunk);
    received += chunk.byteLength;
  }
  if (received !== request.size) throw fail("STAGED_SIZE_MISMATCH");
  if (hash.digest("hex") !== request.sha256) throw fail("STAGED_HASH_MISMATCH");
  return bytes;
}
