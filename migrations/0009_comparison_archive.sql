-- Hand-written (drizzle-kit knows no triggers). Comparison rows leave D1 too, once closed and once nothing there
-- refers to them (their messages and votes archived, no judge's verdict, no share link): one row here per object.
-- Their rooms keep answering for them. Moving a comparison out is not deleting it: inside the archive's own
-- transaction (a row of `archiving`, migration 0008) the appearances it counted stay counted.
CREATE TABLE `comparison_archive` (
	`key` text PRIMARY KEY NOT NULL,
	`comparisons` integer NOT NULL,
	`first_created_at` integer NOT NULL,
	`last_created_at` integer NOT NULL,
	`archived_at` integer NOT NULL
);
--> statement-breakpoint
DROP TRIGGER `comparisons_count_delete`;
--> statement-breakpoint
CREATE TRIGGER `comparisons_count_delete` AFTER DELETE ON `comparisons` WHEN NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
  UPDATE `model_appearances` SET `appearances` = `appearances` - 1
  WHERE `model_id` IN (OLD.`model1_id`, OLD.`model2_id`) AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
END;
