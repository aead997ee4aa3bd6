import { describe, expect, it } from "vitest";
import { failedView, PollFailures, publishView, TOLERATED_POLL_FAILURES } from "~/editor/publish-progress";
import type { PublishStatus } from "~/lib/schemas/publish";

const item = (name: string, isProcessed: boolean, errorCode: string | null = null) => ({ id: name, name, path: `/${name}.html`, isProcessed, errorCode });
const status = (fields: Partial<PublishStatus>): PublishStatus => ({
  queue: [], unpublishedRegions: [], isRequestComplete: false, errorCode: null, total: 0, processed: 0, pageHash: null, ...fields,
});

describe("the publish overlay's view of a status", () => {
  it("says Connecting... until there is more than one page to count", () => {
    expect(publishView(status({})).message).toEqual({ key: "connecting" });
    expect(publishView(status({ total: 1, processed: 0, queue: [item("index", false)] })).message).toEqual({ key: "connecting" });
  });

  it("counts 'Publishing {processed} of {total} Pages' when total is above 1, with the percent", () => {
    const view = publishView(status({ total: 4, processed: 1, queue: [item("a", true), item("b", false), item("c", false), item("d", false)] }));
    expect(view.message).toEqual({ key: "progress", processed: 1, total: 4 });
    expect(view.percent).toBe(25);
    expect(view.complete).toBe(false);
  });

  it("ends with Finished at 100%, without the queue, when every item was written", () => {
    const view = publishView(status({ isRequestComplete: true, total: 2, processed: 2, queue: [item("a", true), item("b", true)] }));
    expect(view).toMatchObject({ percent: 100, message: { key: "finished" }, showQueue: false, complete: true, succeeded: true });
  });

  it("ends with Finished With Errors and shows the queue when an item failed", () => {
    const view = publishView(status({ isRequestComplete: true, total: 2, processed: 2, queue: [item("a", true), item("b", true, "PAGE_CHANGED_ON_SERVER")] }));
    expect(view).toMatchObject({ message: { key: "finishedWithErrors" }, showQueue: true, succeeded: false });
  });

  it("keeps the regions that could not be found for 'Failed to locate content region.'", () => {
    expect(publishView(status({ isRequestComplete: true, total: 1, processed: 1, queue: [item("a", true)], unpublishedRegions: ["gone"] })).unpublishedRegions).toEqual(["gone"]);
  });

  it("shows a publish that could not start with its code (UPGRADE_REQUIRED in the bar)", () => {
    expect(failedView("UPGRADE_REQUIRED")).toMatchObject({ complete: true, succeeded: false, message: { key: "error", code: "UPGRADE_REQUIRED" } });
  });
});

describe("failed polls", () => {
  it("tolerates 3 in a row and gives up on the fourth; a good poll starts the count again", () => {
    const failures = new PollFailures();
    expect(TOLERATED_POLL_FAILURES).toBe(3);
    expect([failures.failed(), failures.failed(), failures.failed()]).toEqual([false, false, false]);
    failures.succeeded();
    expect([failures.failed(), failures.failed(), failures.failed(), failures.failed()]).toEqual([false, false, false, true]);
  });
});
