/**
 * Built-ins taken before any page script ran (main.ts). The editor registers its listeners, timers
 * and observers through these, so a page script that replaced the originals never receives the
 * editor's handlers to call with forged events.
 */
export interface Platform {
  listen(target: EventTarget, type: string, fn: (event: never) => void, options?: boolean | AddEventListenerOptions): void;
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
  observe(callback: MutationCallback): MutationObserver;
}
