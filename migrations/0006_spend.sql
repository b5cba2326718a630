CREATE TABLE `spend_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`model_id` text NOT NULL,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`completed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spend_entries_completed_at` ON `spend_entries` (`completed_at`);--> statement-breakpoint
ALTER TABLE `messages` ADD `cost_usd` real;--> statement-breakpoint
ALTER TABLE `messages` ADD `completed_at` integer;--> statement-breakpoint
CREATE INDEX `messages_completed_at` ON `messages` (`completed_at`);--> statement-breakpoint
ALTER TABLE `review_sets` ADD `completed_at` integer;--> statement-breakpoint
CREATE INDEX `review_sets_completed_at` ON `review_sets` (`completed_at`);--> statement-breakpoint
ALTER TABLE `syntheses` ADD `completed_at` integer;--> statement-breakpoint
CREATE INDEX `answers_completed_at` ON `answers` (`completed_at`);--> statement-breakpoint
-- Hand-written (drizzle-kit knows no triggers): a paid call whose row is deleted (a deleted run, a review
-- run again) leaves its cost behind in spend_entries, so the day's spend never goes down.
CREATE TRIGGER `answers_keep_spend` AFTER DELETE ON `answers`
WHEN OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('answer', OLD.`model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
CREATE TRIGGER `review_sets_keep_spend` AFTER DELETE ON `review_sets`
WHEN OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('review', OLD.`reviewer_model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
CREATE TRIGGER `syntheses_keep_spend` AFTER DELETE ON `syntheses`
WHEN OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('synthesis', OLD.`model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
CREATE TRIGGER `messages_keep_spend` AFTER DELETE ON `messages`
WHEN OLD.`role` = 'assistant' AND OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('side', coalesce((SELECT CASE OLD.`side` WHEN 'left' THEN `model1_id` ELSE `model2_id` END FROM `comparisons` WHERE `id` = OLD.`comparison_id`), '?'),
    OLD.`tokens_in`, OLD.`tokens`, OLD.`cost_usd`, OLD.`completed_at`);
END;
