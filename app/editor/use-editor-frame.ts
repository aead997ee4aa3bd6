/**
 * The parent's end of the editor channel (protocol.ts): one `init` with a MessagePort per frame
 * element, sent when the frame's editor says hello (or when the frame has loaded, whichever is
 * first); after that the parent listens on its port only. Every message is checked on receipt.
 */
import { useCallback, useEffect, useRef } from "react";
import type { RegionUpdates } from "~/lib/regions/types";
import { envelope, type FrameMessage, isHello, type ParentMessage, readFrameMessage } from "./protocol";

/** How long a serialisation may take before a save gives up on the frame. */
const SERIALIZE_TIMEOUT_MS = 15_000;

export interface EditorFrameOptions {
  locale: string;
  strings: Record<string, string>;
  onMessage(message: FrameMessage): void;
}

export function useEditorFrame({ locale, strings, onMessage }: EditorFrameOptions) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const port = useRef<MessagePort | null>(null);
  const initialised = useRef<HTMLIFrameElement | null>(null);
  const pending = useRef(new Map<number, (regions: RegionUpdates | null) => void>());
  const nextRequest = useRef(1);
  const handler = useRef(onMessage);
  const options = useRef({ locale, strings });
  useEffect(() => {
    handler.current = onMessage;
    options.current = { locale, strings };
  });

  const init = useCallback(() => {
    const frame = frameRef.current;
    const target = frame?.contentWindow;
    if (!frame || !target || initialised.current === frame) return;
    initialised.current = frame;
    port.current?.close();
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent) => {
      const message = readFrameMessage(event.data);
      if (!message) return;
      if (message.type === "regions") {
        pending.current.get(message.requestId)?.(message.regions);
        pending.current.delete(message.requestId);
        return;
      }
      handler.current(message);
    };
    port.current = channel.port1;
    // The sandboxed frame's origin is opaque ("null"), so the target cannot name it: the window is
    // the frame's own, and the frame script accepts `init` from this origin only.
    target.postMessage(envelope({ type: "init", locale: options.current.locale, strings: options.current.strings }), "*", [channel.port2]);
  }, []);

  useEffect(() => {
    const waiting = pending.current;
    const onWindowMessage = (event: MessageEvent) => {
      if (event.source !== frameRef.current?.contentWindow || !isHello(event.data)) return;
      init();
    };
    window.addEventListener("message", onWindowMessage);
    return () => {
      window.removeEventListener("message", onWindowMessage);
      port.current?.close();
      port.current = null;
      for (const resolve of waiting.values()) resolve(null);
      waiting.clear();
    };
  }, [init]);

  const send = useCallback((message: ParentMessage) => {
    port.current?.postMessage(envelope(message));
  }, []);

  /** The regions as they are in the frame now; null when the frame does not answer. */
  const serialize = useCallback((): Promise<RegionUpdates | null> => {
    if (!port.current) return Promise.resolve(null);
    const requestId = nextRequest.current++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.current.delete(requestId);
        resolve(null);
      }, SERIALIZE_TIMEOUT_MS);
      pending.current.set(requestId, (regions) => {
        clearTimeout(timer);
        resolve(regions);
      });
      send({ type: "serialize", requestId });
    });
  }, [send]);

  /** A new frame element (after a reload of the page) gets its own `init`. */
  const reset = useCallback(() => {
    initialised.current = null;
  }, []);

  return { frameRef, onLoad: init, send, serialize, reset };
}
