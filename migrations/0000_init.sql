CREATE TABLE `aggregations` (
	`run_id` text PRIMARY KEY NOT NULL,
	`final_ranking` text NOT NULL,
	`vote_breakdown` text NOT NULL,
	`method_version` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `answers` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`model_id` text NOT NULL,
	`label` text NOT NULL,
	`params` text,
	`text` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`latency_ms` integer,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`error` text,
	`truncated` integer DEFAULT false NOT NULL,
	`finish_reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`dropped_params` text,
	`completed_at` integer,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `answers_run_label` ON `answers` (`run_id`,`label`);--> statement-breakpoint
CREATE TABLE `battles` (
	`id` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`model_a` text NOT NULL,
	`model_b` text NOT NULL,
	`winner` text NOT NULL,
	`category` text,
	`tstamp` real NOT NULL,
	`flagged` integer DEFAULT false NOT NULL,
	`vote_id` text,
	`run_id` text,
	`reviewer_model_id` text,
	`import_id` text,
	`question_id` text,
	`judge` text,
	`turn` integer,
	`anony` integer,
	`language` text
);
--> statement-breakpoint
CREATE INDEX `battles_source_tstamp` ON `battles` (`source`,`tstamp`);--> statement-breakpoint
CREATE INDEX `battles_run` ON `battles` (`run_id`);--> statement-breakpoint
CREATE INDEX `battles_vote` ON `battles` (`vote_id`);--> statement-breakpoint
CREATE TABLE `comparisons` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`model1_id` text NOT NULL,
	`model2_id` text NOT NULL,
	`prompt` text NOT NULL,
	`category` text,
	`blind` integer DEFAULT true NOT NULL,
	`mode` text DEFAULT 'manual' NOT NULL,
	`status` text NOT NULL,
	`both_answered_at` integer
);
--> statement-breakpoint
CREATE INDEX `comparisons_model1` ON `comparisons` (`model1_id`);--> statement-breakpoint
CREATE INDEX `comparisons_model2` ON `comparisons` (`model2_id`);--> statement-breakpoint
CREATE INDEX `comparisons_created_at` ON `comparisons` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`comparison_id` text NOT NULL,
	`response` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`comparison_id` text NOT NULL,
	`side` text NOT NULL,
	`turn` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`latency_ms` integer,
	`tokens` integer,
	PRIMARY KEY(`comparison_id`, `side`, `turn`, `role`),
	FOREIGN KEY (`comparison_id`) REFERENCES `comparisons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `model_votes` (
	`id` text PRIMARY KEY NOT NULL,
	`comparison_id` text NOT NULL,
	`vote_id` text NOT NULL,
	`choice` text NOT NULL,
	`winner_model_id` text,
	`client_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`flags` text,
	FOREIGN KEY (`comparison_id`) REFERENCES `comparisons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_votes_winner` ON `model_votes` (`winner_model_id`);--> statement-breakpoint
CREATE INDEX `model_votes_comparison` ON `model_votes` (`comparison_id`);--> statement-breakpoint
CREATE INDEX `model_votes_vote` ON `model_votes` (`vote_id`);--> statement-breakpoint
CREATE TABLE `models` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`name` text NOT NULL,
	`display_name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`default_params` text,
	`price_in_per_mtok` real,
	`price_out_per_mtok` real
);
--> statement-breakpoint
CREATE TABLE `review_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`reviewer_model_id` text NOT NULL,
	`reviewer_answer_id` text,
	`status` text NOT NULL,
	`ranking` text,
	`confidence` real,
	`weight` real DEFAULT 1 NOT NULL,
	`raw_output` text,
	`error` text,
	`latency_ms` integer,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`attempts` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_sets_run` ON `review_sets` (`run_id`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`review_set_id` text NOT NULL,
	`reviewer_model_id` text NOT NULL,
	`target_answer_id` text NOT NULL,
	`scores` text NOT NULL,
	`critique` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`review_set_id`) REFERENCES `review_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reviews_run` ON `reviews` (`run_id`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`question` text NOT NULL,
	`settings` text NOT NULL,
	`status` text NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `runs_created_at` ON `runs` (`created_at`,`id`);