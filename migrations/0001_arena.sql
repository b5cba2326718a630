CREATE TABLE `battle_epochs` (
	`source` text PRIMARY KEY NOT NULL,
	`epoch` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `elo_snapshots` (
	`stream` text PRIMARY KEY NOT NULL,
	`epoch` integer NOT NULL,
	`upto_rowid` integer NOT NULL,
	`last_tstamp` real NOT NULL,
	`ratings` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `model_appearances` (
	`category` text NOT NULL,
	`model_id` text NOT NULL,
	`appearances` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`category`, `model_id`)
);
--> statement-breakpoint
CREATE TABLE `pair_counts` (
	`source` text NOT NULL,
	`category` text NOT NULL,
	`flagged` integer NOT NULL,
	`model_lo` text NOT NULL,
	`model_hi` text NOT NULL,
	`lo_wins` integer DEFAULT 0 NOT NULL,
	`hi_wins` integer DEFAULT 0 NOT NULL,
	`ties` integer DEFAULT 0 NOT NULL,
	`both_bad` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`source`, `category`, `flagged`, `model_lo`, `model_hi`)
);
--> statement-breakpoint
ALTER TABLE `battles` ADD `comparison_id` text;--> statement-breakpoint
ALTER TABLE `battles` ADD `conv_metadata` text;--> statement-breakpoint
CREATE INDEX `battles_import` ON `battles` (`import_id`);--> statement-breakpoint
ALTER TABLE `comparisons` ADD `mode_note` text;--> statement-breakpoint
ALTER TABLE `comparisons` ADD `params` text;--> statement-breakpoint
ALTER TABLE `comparisons` ADD `revealed_at` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `tokens_in` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `status` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `error` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `truncated` integer DEFAULT false NOT NULL;