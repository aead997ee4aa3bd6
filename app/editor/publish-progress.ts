/**
 * What the publish overlay shows for a publish status (spec, "Publish"): a percent, a message and,
 * when an item failed, the queue. Pure, so the rules are tested without a browser.
 */
import type { PublishStatus } from "~/lib/schemas/publish";

/** The spec: polled every 500 ms; 3 consecutive failed polls are tolerated, the fourth fails the publish. */
export const PUBLISH_POLL_MS = 500;
export const TOLERATED_POLL_FAILURES = 3;
/** The spec: the Upgrade Required dialog follows the message 3.5 s later. */
export const UPGRADE_DIALOG_DELAY_MS = 3500;

export type PublishMessage =
  | { key: "connecting" }
  | { key: "progress"; processed: number; total: number }
  | { key: "finished" }
  | { key: "finishedWithErrors" }
  /** The publish could not start or could not be followed: the error code's message. */
  | { key: "error"; code: string | null };

export interface PublishView {
  percent: number;
  message: PublishMessage;
  /** Shown when any item has an error. */
  showQueue: boolean;
  queue: PublishStatus["queue"];
  /** Region ids the page did not have ('Failed to locate content region.'). */
  unpublishedRegions: string[];
  complete: boolean;
  /** Complete, every item written: the draft is gone and the page is clean. */
  succeeded: boolean;
}

export const CONNECTING: PublishView = {
  percent: 0, message: { key: "connecting" }, showQueue: false, queue: [], unpublishedRegions: [], complete: false, succeeded: false,
};

/**
 * @example publishView({ total: 3, processed: 1, isRequestComplete: false, … }).message // { key: "progress", processed: 1, total: 3 }
 */
export function publishView(status: PublishStatus): PublishView {
  const failedItem = status.queue.some((item) => item.errorCode !== null);
  const failed = failedItem || status.errorCode !== null;
  const percent = status.isRequestComplete ? 100 : status.total > 0 ? Math.min(99, Math.round((status.processed / status.total) * 100)) : 0;
  let message: PublishMessage;
  if (status.isRequestComplete) message = failed ? { key: "finishedWithErrors" } : { key: "finished" };
  else if (status.total > 1) message = { key: "progress", processed: status.processed, total: status.total };
  else message = { key: "connecting" };
  return {
    percent,
    message,
    showQueue: failedItem,
    queue: status.queue,
    unpublishedRegions: status.unpublishedRegions,
    complete: status.isRequestComplete,
    succeeded: status.isRequestComplete && !failed,
  };
}

/** A publish that could not start or be followed: its code shown in the bar. */
export function failedView(code: string | null): PublishView {
  return { ...CONNECTING, percent: 100, message: { key: "error", code }, complete: true };
}

/**
 * Counts consecutive failed polls: `failed()` answers true when the publish must be given up (the
 * fourth in a row), `succeeded()` resets the count.
 */
export class PollFailures {
  private count = 0;
  failed(): boolean {
    this.count += 1;
    return this.count > TOLERATED_POLL_FAILURES;
  }
  succeeded(): void {
    this.count = 0;
  }
}
