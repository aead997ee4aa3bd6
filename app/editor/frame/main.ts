/**
 * The in-frame editor's entry: the channel to the parent (protocol.ts, header comment).
 *
 * This script is the first script of the document, so everything here runs before any of the
 * customer's scripts. It takes, now, every built-in the channel depends on, and calls them through
 * `Reflect.apply` kept in a local constant: a page script that later replaces
 * `MessagePort.prototype.postMessage`, `Function.prototype.call`, the `MessageEvent` getters or
 * `addEventListener` sees none of our calls and never receives the port, its events or a function
 * that sends on it. The port lives only in this module's closure.
 */
import { envelope, type FrameMessage, type FramePage, type ParentMessage, readParentMessage } from "../protocol";
import { captureIgnoredRanges } from "./ignored";
import { startEditor } from "./editor";
import type { Platform } from "./platform";

const apply = Reflect.apply;
const getter = (proto: object, name: string): (() => unknown) =>
  (Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor).get as () => unknown;
const portPost = MessagePort.prototype.postMessage;
const portStart = MessagePort.prototype.start;
const listen = EventTarget.prototype.addEventListener;
const unlisten = EventTarget.prototype.removeEventListener;
const stopImmediate = Event.prototype.stopImmediatePropagation;
const cancel = Event.prototype.preventDefault;
const eventData = getter(MessageEvent.prototype, "data");
const eventPorts = getter(MessageEvent.prototype, "ports");
const eventSource = getter(MessageEvent.prototype, "source");
const eventOrigin = getter(MessageEvent.prototype, "origin");
const keyOf = getter(KeyboardEvent.prototype, "key");
const codeOf = getter(KeyboardEvent.prototype, "code");
const ctrlOf = getter(KeyboardEvent.prototype, "ctrlKey");
const metaOf = getter(KeyboardEvent.prototype, "metaKey");
const shiftOf = getter(KeyboardEvent.prototype, "shiftKey");
const altOf = getter(KeyboardEvent.prototype, "altKey");
const setTimer = window.setTimeout;
const clearTimer = window.clearTimeout;
const Observer = MutationObserver;
const frameWindow = window;
const parentWindow = window.parent;

/**
 * What the render wrote on this script's tag, read now, before any page script could change it:
 * the parent's origin (`data-parent-origin`, else the origin the script was served from; empty
 * for an inline copy), the page's facts (base hash, revision, metadata) and, when the render had
 * no page to show, the error code (`data-error`).
 */
const tag = (() => {
  const script = document.currentScript;
  const read = (name: string) => (script instanceof HTMLScriptElement ? script.getAttribute(name) : null);
  let origin = read("data-parent-origin") ?? "";
  if (!origin && script instanceof HTMLScriptElement && script.src) {
    try {
      origin = new URL(script.src).origin;
    } catch {
      origin = "";
    }
  }
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  let metadata: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(read("data-metadata") ?? "{}");
    if (typeof parsed === "object" && parsed !== null) metadata = parsed as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  const page: FramePage = {
    baseHash: read("data-base-hash"),
    revisionId: read("data-revision-id") || null,
    metadata: {
      title: text(metadata.title), description: text(metadata.description), image: text(metadata.image),
      robots: metadata.robots === true, type: text(metadata.type), url: text(metadata.url),
    },
  };
  return { origin, page, error: read("data-error") };
})();
const parentOrigin = tag.origin;

let port: MessagePort | null = null;
const HELLO_INTERVAL_MS = 100;
const HELLO_TRIES = 300;
let handler: ((message: ParentMessage) => void) | null = null;
let startupError: string | null = null;

function send(message: FrameMessage): void {
  if (port) apply(portPost, port, [envelope(message)]);
}

const platform: Platform = {
  listen: (target, type, fn, options) => apply(listen, target, [type, fn, options]),
  setTimeout: (fn, ms) => apply(setTimer, frameWindow, [fn, ms]) as unknown as number,
  clearTimeout: (id) => apply(clearTimer, frameWindow, [id]),
  observe: (callback) => new Observer(callback),
};

function onWindowMessage(event: MessageEvent): void {
  if (port !== null || !event.isTrusted) return;
  if (apply(eventSource, event, []) !== parentWindow) return;
  if (parentOrigin && apply(eventOrigin, event, []) !== parentOrigin) return;
  // The parent posts nothing else to this window: stop it before anything below could throw and
  // let the event, and its port, reach the page's own listeners.
  apply(stopImmediate, event, []);
  const ports = apply(eventPorts, event, []) as readonly MessagePort[];
  const message = readParentMessage(apply(eventData, event, []));
  if (!message || message.type !== "init" || ports.length !== 1) return;
  port = ports[0];
  apply(unlisten, frameWindow, ["message", onWindowMessage, true]);
  apply(listen, port, ["message", onPortMessage]);
  apply(portStart, port, []);
  begin(message);
}

function onPortMessage(event: MessageEvent): void {
  const message = readParentMessage(apply(eventData, event, []));
  if (message && message.type !== "init" && handler) handler(message);
}

/**
 * Ctrl/Cmd+S from the person at the keyboard asks for a draft save; Ctrl/Cmd+Shift+S asks the
 * parent to offer the publish, which it does only after a confirmation given in the parent.
 */
function onKeyDown(event: KeyboardEvent): void {
  if (!event.isTrusted) return;
  const key = apply(keyOf, event, []);
  const isS = key === "s" || key === "S" || apply(codeOf, event, []) === "KeyS";
  if (!isS || apply(altOf, event, [])) return;
  if (!apply(ctrlOf, event, []) && !apply(metaOf, event, [])) return;
  apply(cancel, event, []);
  send({ type: "shortcut", name: apply(shiftOf, event, []) ? "publish" : "save" });
}

function fail(error: unknown, code: string | null = null): void {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  send({ type: "failed", reason: reason.slice(0, 900), code });
}

function begin(init: Extract<ParentMessage, { type: "init" }>): void {
  if (tag.error) return fail("The page could not be rendered", tag.error);
  if (startupError !== null) return fail(startupError);
  const start = () => {
    try {
      handler = startEditor(platform, send, init, tag.page);
    } catch (error) {
      fail(error);
    }
  };
  if (document.readyState === "loading") apply(listen, document, ["DOMContentLoaded", start, { once: true }]);
  else start();
}

try {
  if (parentWindow !== frameWindow) {
    apply(listen, frameWindow, ["message", onWindowMessage, true]);
    // Tells the parent this document's editor is listening, so it can send `init` before the page
    // has loaded all its images; again every 100 ms until `init` came (the parent may still be
    // hydrating). Only a hint: the parent sends one `init` per frame, whoever asks.
    if (parentOrigin) {
      const hello = envelope({ type: "hello" });
      const postHello = parentWindow.postMessage.bind(parentWindow);
      let tries = 0;
      const sayHello = () => {
        if (port !== null || tries++ >= HELLO_TRIES) return;
        postHello(hello, parentOrigin);
        apply(setTimer, frameWindow, [sayHello, HELLO_INTERVAL_MS]);
      };
      sayHello();
    }
    apply(listen, frameWindow, ["keydown", onKeyDown, true]);
    captureIgnoredRanges(platform);
  }
} catch (error) {
  startupError = error instanceof Error ? error.message : String(error);
}
