CREATE TABLE `evaluation_answers` (
	`evaluation_id` text NOT NULL,
	`item_id` text NOT NULL,
	`contestant` text NOT NULL,
	`sample` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`error` text,
	`latency_ms` integer,
	`first_token_ms` integer,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`truncated` integer DEFAULT false NOT NULL,
	`completed_at` integer NOT NULL,
	PRIMARY KEY(`evaluation_id`, `item_id`, `contestant`, `sample`),
	FOREIGN KEY (`evaluation_id`) REFERENCES `evaluations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `evaluation_judgments` (
	`evaluation_id` text NOT NULL,
	`item_id` text NOT NULL,
	`sample` integer DEFAULT 0 NOT NULL,
	`judge` text NOT NULL,
	`first` text NOT NULL,
	`second` text NOT NULL,
	`status` text NOT NULL,
	`verdict` text,
	`reasons` text,
	`error` text,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`completed_at` integer NOT NULL,
	PRIMARY KEY(`evaluation_id`, `item_id`, `sample`, `judge`, `first`, `second`),
	FOREIGN KEY (`evaluation_id`) REFERENCES `evaluations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `evaluations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prompt_set_id` text NOT NULL,
	`method` text NOT NULL,
	`contestants` text NOT NULL,
	`judges` text NOT NULL,
	`baseline` text,
	`repeats` integer DEFAULT 1 NOT NULL,
	`settings` text NOT NULL,
	`status` text NOT NULL,
	`estimate_usd` real,
	`spent_usd` real DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `evaluations_created_at` ON `evaluations` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `evaluations_set` ON `evaluations` (`prompt_set_id`);--> statement-breakpoint
CREATE TABLE `presets` (
	`slug` text NOT NULL,
	`version` integer NOT NULL,
	`name` text NOT NULL,
	`model_id` text NOT NULL,
	`system_prompt` text,
	`temperature` real,
	`max_tokens` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`used_at` integer,
	`deleted_at` integer,
	PRIMARY KEY(`slug`, `version`)
);
--> statement-breakpoint
CREATE TABLE `prompt_set_items` (
	`set_id` text NOT NULL,
	`position` integer NOT NULL,
	`item_id` text NOT NULL,
	`prompt` text NOT NULL,
	`category` text,
	`reference` text,
	`turns` text,
	PRIMARY KEY(`set_id`, `position`),
	FOREIGN KEY (`set_id`) REFERENCES `prompt_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prompt_set_items_item` ON `prompt_set_items` (`set_id`,`item_id`);--> statement-breakpoint
CREATE TABLE `prompt_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`previous_id` text,
	`items` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `prompt_sets_created_at` ON `prompt_sets` (`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `battles` ADD `evaluation_id` text;--> statement-breakpoint
CREATE INDEX `battles_evaluation` ON `battles` (`evaluation_id`) WHERE "battles"."evaluation_id" IS NOT NULL;