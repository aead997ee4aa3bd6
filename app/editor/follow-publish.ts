import { apiJson } from "~/lib/api-client";
import type { PublishStatus } from "~/lib/schemas/publish";
import { PollFailures, PUBLISH_POLL_MS } from "./publish-progress";

/**
 * Follows a publish (or a rollback) until it is complete (spec, "Publish"): its status polled every
 * 500 ms, each one handed to `onStatus`; 3 failed polls in a row are tolerated, the fourth throws.
 *
 * @example const final = await followPublish(`/sites/${siteId}/pages/${pageId}`, statusId, (status) => setView(publishView(status)));
 */
export async function followPublish(pageUrl: string, statusId: string, onStatus: (status: PublishStatus) => void = () => {}): Promise<PublishStatus> {
  const failures = new PollFailures();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, PUBLISH_POLL_MS));
    let status: PublishStatus;
    try {
      status = (await apiJson<{ publishStatus: PublishStatus }>(`${pageUrl}/publish/${statusId}`)).publishStatus;
      failures.succeeded();
    } catch (error) {
      if (failures.failed()) throw error;
      continue;
    }
    onStatus(status);
    if (status.isRequestComplete) return status;
  }
}
