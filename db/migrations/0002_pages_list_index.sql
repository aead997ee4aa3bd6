DROP INDEX `pages_site_order_idx`;--> statement-breakpoint
CREATE INDEX `pages_site_list_idx` ON `pages` (`site_id`,"is_pinned" desc,`name_sort`,`id`,`is_enabled`,`account_id`);