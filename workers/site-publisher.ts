import { DurableObject } from "cloudflare:workers";
import { runPublishJob } from "~/services/publish-runner.server";
import { unfinishedJobIds } from "~/services/publish.server";
import { getDb } from "~/services/db.server";

const QUEUE = "queue";
const SITE = "siteId";

/**
 * The publish queue of one site (one object per site id): the site's publish lease
 * (docs/decisions/005-publish-queue.md). Jobs run one at a time, in the order they were queued,
 * from the alarm handler, which the runtime never runs twice at once; so two publishes of one site
 * never write its files in parallel. The queue lives in the object's storage and every job's
 * progress in D1, so a restart resumes from the alarm; a job whose agent is away is retried later.
 *
 * @example await env.SITE_PUBLISHER.getByName(site.id).enqueue(jobId);
 */
export class SitePublisher extends DurableObject<Env> {
  async enqueue(jobId: string, siteId?: string): Promise<void> {
    const queue = (await this.ctx.storage.get<string[]>(QUEUE)) ?? [];
    if (!queue.includes(jobId)) queue.push(jobId);
    await this.ctx.storage.put(QUEUE, queue);
    if (siteId) await this.ctx.storage.put(SITE, siteId);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    let queue = (await this.ctx.storage.get<string[]>(QUEUE)) ?? [];
    // Storage lost or never written (an object recreated): D1 still knows what was left to do.
    const siteId = await this.ctx.storage.get<string>(SITE);
    if (queue.length === 0 && siteId) queue = await unfinishedJobIds(getDb(this.env), siteId);
    while (queue.length > 0) {
      const jobId = queue[0];
      const outcome = await runPublishJob(this.env, jobId).catch((error: unknown) => {
        console.error("publish queue: job crashed", jobId, error);
        return { kind: "finished" as const };
      });
      if (outcome.kind === "retry") {
        await this.ctx.storage.setAlarm(outcome.atMs);
        return;
      }
      // Jobs queued while this one ran were appended to storage: re-read before dropping the head.
      queue = ((await this.ctx.storage.get<string[]>(QUEUE)) ?? []).filter((id) => id !== jobId);
      await this.ctx.storage.put(QUEUE, queue);
    }
  }
}
