CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`plan` text DEFAULT 'personal' NOT NULL,
	`payment_interval` text,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`stripe_card_brand` text,
	`stripe_card_last4` text,
	`stripe_cancel_at_period_end` integer DEFAULT false NOT NULL,
	`stripe_current_period_end` integer,
	`organization` text,
	`invoice_text` text,
	`requires_tfa` integer DEFAULT false NOT NULL,
	`app_name` text,
	`subdomain` text,
	`custom_domain` text,
	`domain_disabled_at` integer,
	`support_url` text,
	`logo_light` text,
	`logo_dark` text,
	`favicon` text,
	`ga_auth_token` text,
	`ga_auth_token_iv` text,
	`ga_auth_token_key_version` integer,
	`analytics_token` text,
	`is_demo_account` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_stripe_customer_id_unique` ON `accounts` (`stripe_customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_stripe_subscription_id_unique` ON `accounts` (`stripe_subscription_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_subdomain_unique` ON `accounts` (`subdomain`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_custom_domain_unique` ON `accounts` (`custom_domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_analytics_token_unique` ON `accounts` (`analytics_token`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`is_hosted` integer DEFAULT false NOT NULL,
	`last_seen_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_token_hash_unique` ON `agents` (`token_hash`);--> statement-breakpoint
CREATE INDEX `agents_account_idx` ON `agents` (`account_id`);--> statement-breakpoint
CREATE TABLE `analytics_rollups` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`pageviews` integer DEFAULT 0 NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	`bounces` integer DEFAULT 0 NOT NULL,
	`entrances` integer DEFAULT 0 NOT NULL,
	`exits` integer DEFAULT 0 NOT NULL,
	`new_visits` integer DEFAULT 0 NOT NULL,
	`time_on_page` integer DEFAULT 0 NOT NULL,
	`session_duration` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_rollups_unique` ON `analytics_rollups` (`site_id`,`dimension`,`day`,`value`);--> statement-breakpoint
CREATE INDEX `analytics_rollups_account_idx` ON `analytics_rollups` (`account_id`);--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user_idx` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`actor_user_id` text,
	`sudo_user_id` text,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` text,
	`details` text,
	`ip` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sudo_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_account_idx` ON `audit_log` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_user_id`);--> statement-breakpoint
CREATE INDEX `audit_log_sudo_user_idx` ON `audit_log` (`sudo_user_id`);--> statement-breakpoint
CREATE TABLE `blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blocks_site_name_unique` ON `blocks` (`site_id`,`name`);--> statement-breakpoint
CREATE INDEX `blocks_account_idx` ON `blocks` (`account_id`);--> statement-breakpoint
CREATE TABLE `change_notifications` (
	`user_id` text NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `site_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `change_notifications_site_idx` ON `change_notifications` (`site_id`);--> statement-breakpoint
CREATE INDEX `change_notifications_account_idx` ON `change_notifications` (`account_id`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`kind` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_outbox_sent_idx` ON `email_outbox` (`sent_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_account_idx` ON `email_outbox` (`account_id`);--> statement-breakpoint
CREATE TABLE `favorites` (
	`user_id` text NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `site_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `favorites_site_idx` ON `favorites` (`site_id`);--> statement-breakpoint
CREATE INDEX `favorites_account_idx` ON `favorites` (`account_id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`account_id` text NOT NULL,
	`starting_balance` integer DEFAULT 0 NOT NULL,
	`subtotal` integer NOT NULL,
	`tax` integer DEFAULT 0 NOT NULL,
	`total` integer NOT NULL,
	`amount_due` integer NOT NULL,
	`lines` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_payment_id_unique` ON `invoices` (`payment_id`);--> statement-breakpoint
CREATE INDEX `invoices_account_idx` ON `invoices` (`account_id`);--> statement-breakpoint
CREATE TABLE `one_time_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `one_time_tokens_user_idx` ON `one_time_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `pages` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`name_sort` text GENERATED ALWAYS AS (lower(name)) VIRTUAL,
	`path` text NOT NULL,
	`is_pinned` integer DEFAULT false NOT NULL,
	`is_enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_site_path_unique` ON `pages` (`site_id`,`path`);--> statement-breakpoint
CREATE INDEX `pages_site_order_idx` ON `pages` (`site_id`,"is_pinned" desc,`name_sort`,`id`);--> statement-breakpoint
CREATE INDEX `pages_account_idx` ON `pages` (`account_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`stripe_invoice_id` text NOT NULL,
	`invoice_date` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`stripe_card_brand` text,
	`stripe_card_last4` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_stripe_invoice_id_unique` ON `payments` (`stripe_invoice_id`);--> statement-breakpoint
CREATE INDEX `payments_account_idx` ON `payments` (`account_id`,`invoice_date`);--> statement-breakpoint
CREATE TABLE `permission_pages` (
	`permission_id` text NOT NULL,
	`page_id` text NOT NULL,
	`account_id` text NOT NULL,
	PRIMARY KEY(`permission_id`, `page_id`),
	FOREIGN KEY (`permission_id`) REFERENCES `site_permissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `permission_pages_page_idx` ON `permission_pages` (`page_id`);--> statement-breakpoint
CREATE INDEX `permission_pages_account_idx` ON `permission_pages` (`account_id`);--> statement-breakpoint
CREATE TABLE `publish_items` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`account_id` text NOT NULL,
	`page_id` text,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`is_processed` integer DEFAULT false NOT NULL,
	`error_code` text,
	`before_hash` text,
	`after_hash` text,
	`backup_key` text,
	`unpublished_regions` text,
	`processed_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `publish_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `publish_items_job_path_unique` ON `publish_items` (`job_id`,`path`);--> statement-breakpoint
CREATE INDEX `publish_items_page_idx` ON `publish_items` (`page_id`);--> statement-breakpoint
CREATE INDEX `publish_items_account_idx` ON `publish_items` (`account_id`);--> statement-breakpoint
CREATE TABLE `publish_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`page_id` text,
	`block_id` text,
	`account_id` text NOT NULL,
	`user_id` text,
	`revision_id` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`error_code` text,
	`total` integer DEFAULT 0 NOT NULL,
	`processed` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	`rolled_back_at` integer,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`block_id`) REFERENCES `blocks`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`revision_id`) REFERENCES `revisions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `publish_jobs_site_idx` ON `publish_jobs` (`site_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `publish_jobs_account_idx` ON `publish_jobs` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `publish_jobs_page_idx` ON `publish_jobs` (`page_id`);--> statement-breakpoint
CREATE INDEX `publish_jobs_block_idx` ON `publish_jobs` (`block_id`);--> statement-breakpoint
CREATE INDEX `publish_jobs_user_idx` ON `publish_jobs` (`user_id`);--> statement-breakpoint
CREATE INDEX `publish_jobs_revision_idx` ON `publish_jobs` (`revision_id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recovery_codes_code_hash_unique` ON `recovery_codes` (`code_hash`);--> statement-breakpoint
CREATE INDEX `recovery_codes_user_idx` ON `recovery_codes` (`user_id`);--> statement-breakpoint
CREATE TABLE `revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`page_id` text NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text,
	`is_draft` integer NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`metadata` text,
	`regions` text,
	`body_key` text,
	`base_hash` text,
	`before_hash` text,
	`after_hash` text,
	`publish_job_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`publish_job_id`) REFERENCES `publish_jobs`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `revisions_page_idx` ON `revisions` (`page_id`,`is_draft`,`created_at`);--> statement-breakpoint
CREATE INDEX `revisions_site_idx` ON `revisions` (`site_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `revisions_user_idx` ON `revisions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `revisions_account_idx` ON `revisions` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `revisions_publish_job_idx` ON `revisions` (`publish_job_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`sudo_user_id` text,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`tfa_verified` integer DEFAULT false NOT NULL,
	`user_agent` text,
	`ip` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sudo_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_sudo_user_idx` ON `sessions` (`sudo_user_id`);--> statement-breakpoint
CREATE TABLE `site_permissions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`site_id` text NOT NULL,
	`all_pages` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_permissions_user_site_unique` ON `site_permissions` (`user_id`,`site_id`);--> statement-breakpoint
CREATE INDEX `site_permissions_site_idx` ON `site_permissions` (`site_id`);--> statement-breakpoint
CREATE INDEX `site_permissions_account_idx` ON `site_permissions` (`account_id`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`name_sort` text GENERATED ALWAYS AS (lower(name)) VIRTUAL,
	`url` text NOT NULL,
	`classification` text NOT NULL,
	`classification_locked` integer DEFAULT false NOT NULL,
	`protocol` text NOT NULL,
	`host` text,
	`port` integer,
	`username` text,
	`secrets_ciphertext` text,
	`secrets_iv` text,
	`secrets_key_version` integer,
	`s3_access_key` text,
	`s3_region` text,
	`s3_bucket` text,
	`s3_acl` text,
	`sftp_host_key` text,
	`ftps_cert_fingerprint` text,
	`home_folder` text NOT NULL,
	`upload_folder` text NOT NULL,
	`agent_id` text,
	`screenshot_key` text,
	`is_locked` integer DEFAULT false NOT NULL,
	`is_demo` integer DEFAULT false NOT NULL,
	`can_duplicate_pages` integer DEFAULT false NOT NULL,
	`can_delete_pages` integer DEFAULT false NOT NULL,
	`ga_profile_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sites_account_name_idx` ON `sites` (`account_id`,`name_sort`,`id`);--> statement-breakpoint
CREATE INDEX `sites_agent_idx` ON `sites` (`agent_id`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `support_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text,
	`type` text NOT NULL,
	`details` text NOT NULL,
	`site_ids` text NOT NULL,
	`is_priority` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `support_requests_account_idx` ON `support_requests` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `support_requests_user_idx` ON `support_requests` (`user_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`site_id` text NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`extension` text NOT NULL,
	`source` text,
	`source_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `templates_site_idx` ON `templates` (`site_id`,`name`);--> statement-breakpoint
CREATE INDEX `templates_account_idx` ON `templates` (`account_id`);--> statement-breakpoint
CREATE TABLE `tfa_secrets` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`secret_iv` text NOT NULL,
	`key_version` integer NOT NULL,
	`last_used_step` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`confirmed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `trusted_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trusted_devices_token_hash_unique` ON `trusted_devices` (`token_hash`);--> statement-breakpoint
CREATE INDEX `trusted_devices_user_idx` ON `trusted_devices` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`avatar` text,
	`bio` text,
	`password_hash` text,
	`last_seen_at` integer,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_owner` integer DEFAULT false NOT NULL,
	`is_superuser` integer DEFAULT false NOT NULL,
	`requires_tfa` integer DEFAULT false NOT NULL,
	`tfa_enabled` integer DEFAULT false NOT NULL,
	`can_manage_billing` integer DEFAULT false NOT NULL,
	`can_manage_settings` integer DEFAULT false NOT NULL,
	`can_manage_sites` integer DEFAULT false NOT NULL,
	`can_manage_users` integer DEFAULT false NOT NULL,
	`failed_login_count` integer DEFAULT 0 NOT NULL,
	`locked_until_reset` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`confirmed_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_account_idx` ON `users` (`account_id`);