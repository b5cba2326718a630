CREATE TABLE `shares` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`item_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shares_token_hash` ON `shares` (`token_hash`);--> statement-breakpoint
CREATE INDEX `shares_item` ON `shares` (`kind`,`item_id`);--> statement-breakpoint
-- Hand-written (drizzle-kit knows no triggers): a deleted run or comparison takes its share links with it.
CREATE TRIGGER `runs_delete_shares` AFTER DELETE ON `runs` BEGIN
  DELETE FROM `shares` WHERE `kind` = 'run' AND `item_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `comparisons_delete_shares` AFTER DELETE ON `comparisons` BEGIN
  DELETE FROM `shares` WHERE `kind` = 'comparison' AND `item_id` = OLD.`id`;
END;
