import { describe, expect, it } from "vitest";
import { AgentError, lostDuring, mapFtpError, mapSftpError } from "../../agent/src/errors.ts";

const netError = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("agent error mapping: a connection lost during an operation", () => {
  it("counts a reset in the middle of an upload against the upload, with the reason CONNECTION_LOST", () => {
    const reset = netError("ECONNRESET", "read ECONNRESET");
    const mapped = lostDuring(mapSftpError(reset, "CONNECTION_AGENT_UPLOAD"), reset, "CONNECTION_AGENT_UPLOAD");
    expect(mapped.code).toBe("CONNECTION_AGENT_UPLOAD");
    expect(mapped.reason).toBe("CONNECTION_LOST");
  });

  it("does the same for a library's own 'no connection' message (ssh2-sftp-client) and a closed FTP client", () => {
    const gone = new Error("put: No SFTP connection available");
    expect(lostDuring(mapSftpError(gone, "CONNECTION_AGENT_DOWNLOAD"), gone, "CONNECTION_AGENT_DOWNLOAD").code).toBe("CONNECTION_AGENT_DOWNLOAD");
    const closed = new Error("Client is closed because Server sent FIN packet unexpectedly, closing connection.");
    expect(lostDuring(mapFtpError(closed, "CONNECTION_AGENT_LIST"), closed, "CONNECTION_AGENT_LIST").code).toBe("CONNECTION_AGENT_LIST");
  });

  it("keeps a server that cannot be reached at all a failure to connect", () => {
    for (const code of ["ECONNREFUSED", "EHOSTUNREACH", "ENOTFOUND"]) {
      const error = netError(code);
      expect(lostDuring(mapSftpError(error, "CONNECTION_AGENT_UPLOAD"), error, "CONNECTION_AGENT_UPLOAD").code).toBe("CONNECTION_AGENT_CONNECT");
    }
  });

  it("leaves the connect step's own failures, and reasoned ones, as they are", () => {
    const reset = netError("ECONNRESET");
    expect(lostDuring(mapSftpError(reset, "CONNECTION_AGENT_CONNECT"), reset, "CONNECTION_AGENT_CONNECT").code).toBe("CONNECTION_AGENT_CONNECT");
    const hostKey = new AgentError("CONNECTION_AGENT_CONNECT", "Host denied (verification failed)", { reason: "HOST_KEY_CHANGED" });
    expect(lostDuring(hostKey, new Error("socket hang up"), "CONNECTION_AGENT_UPLOAD")).toBe(hostKey);
  });
});
