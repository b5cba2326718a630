CREATE TABLE `judge_verdicts` (
	`comparison_id` text NOT NULL,
	`judge_model_id` text NOT NULL,
	`verdict` text NOT NULL,
	`flipped` integer NOT NULL,
	`orders` text NOT NULL,
	`left_chars` integer NOT NULL,
	`right_chars` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`comparison_id`, `judge_model_id`)
);
--> statement-breakpoint
CREATE INDEX `judge_verdicts_judge` ON `judge_verdicts` (`judge_model_id`);--> statement-breakpoint
ALTER TABLE `review_sets` ADD `shown_order` text;