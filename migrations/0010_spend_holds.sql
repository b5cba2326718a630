CREATE TABLE `spend_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`day` integer NOT NULL,
	`usd` real NOT NULL,
	`hidden` integer NOT NULL,
	`blind_price_in` real,
	`blind_price_out` real,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`settled_at` integer,
	`revealed_at` integer
);
--> statement-breakpoint
CREATE INDEX `spend_holds_day` ON `spend_holds` (`day`);--> statement-breakpoint
CREATE INDEX `spend_holds_item` ON `spend_holds` (`item_id`);--> statement-breakpoint
ALTER TABLE `spend_entries` ADD `item_id` text;--> statement-breakpoint
CREATE INDEX `spend_entries_item` ON `spend_entries` (`item_id`);--> statement-breakpoint
-- Hand-written (drizzle-kit knows no triggers): the kept spend of a deleted row now says which run or
-- comparison paid for it, so that item's own cap and totals count it; and a paid row written over by a
-- retry (an answer or a synthesis asked again is reset to pending) keeps its cost too.
DROP TRIGGER `answers_keep_spend`;--> statement-breakpoint
CREATE TRIGGER `answers_keep_spend` AFTER DELETE ON `answers`
WHEN OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `item_id`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('answer', OLD.`run_id`, OLD.`model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
CREATE TRIGGER `answers_keep_spend_on_reset` AFTER UPDATE OF `completed_at` ON `answers`
WHEN OLD.`completed_at` IS NOT NULL AND NEW.`completed_at` IS NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `item_id`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('answer', OLD.`run_id`, OLD.`model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
DROP TRIGGER `review_sets_keep_spend`;--> statement-breakpoint
CREATE TRIGGER `review_sets_keep_spend` AFTER DELETE ON `review_sets`
WHEN OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `item_id`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('review', OLD.`run_id`, OLD.`reviewer_model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
DROP TRIGGER `syntheses_keep_spend`;--> statement-breakpoint
CREATE TRIGGER `syntheses_keep_spend` AFTER DELETE ON `syntheses`
WHEN OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `item_id`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('synthesis', OLD.`run_id`, OLD.`model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
CREATE TRIGGER `syntheses_keep_spend_on_reset` AFTER UPDATE OF `completed_at` ON `syntheses`
WHEN OLD.`completed_at` IS NOT NULL AND NEW.`completed_at` IS NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens_out`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `item_id`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('synthesis', OLD.`run_id`, OLD.`model_id`, OLD.`tokens_in`, OLD.`tokens_out`, OLD.`cost_usd`, OLD.`completed_at`);
END;--> statement-breakpoint
DROP TRIGGER `messages_keep_spend`;--> statement-breakpoint
CREATE TRIGGER `messages_keep_spend` AFTER DELETE ON `messages`
WHEN OLD.`role` = 'assistant' AND OLD.`completed_at` IS NOT NULL AND (coalesce(OLD.`cost_usd`, 0) > 0 OR coalesce(OLD.`tokens_in`, 0) + coalesce(OLD.`tokens`, 0) > 0) BEGIN
  INSERT INTO `spend_entries` (`kind`, `item_id`, `model_id`, `tokens_in`, `tokens_out`, `cost_usd`, `completed_at`)
  VALUES ('side', OLD.`comparison_id`, coalesce((SELECT CASE OLD.`side` WHEN 'left' THEN `model1_id` ELSE `model2_id` END FROM `comparisons` WHERE `id` = OLD.`comparison_id`), '?'),
    OLD.`tokens_in`, OLD.`tokens`, OLD.`cost_usd`, OLD.`completed_at`);
END;
