ALTER TABLE `publish_jobs` ADD `rolls_back_job_id` text REFERENCES publish_jobs(id);--> statement-breakpoint
CREATE INDEX `publish_jobs_rolls_back_idx` ON `publish_jobs` (`rolls_back_job_id`);