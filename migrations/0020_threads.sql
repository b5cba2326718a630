CREATE TABLE `thread_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`seq` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`mode` text NOT NULL,
	`status` text NOT NULL,
	`model_id` text,
	`display_name` text,
	`reason` text,
	`comparison_id` text,
	`tokens_in` integer,
	`tokens_out` integer,
	`latency_ms` integer,
	`cost_usd` real,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `thread_messages_seq` ON `thread_messages` (`thread_id`,`seq`);--> statement-breakpoint
CREATE INDEX `thread_messages_comparison` ON `thread_messages` (`comparison_id`);--> statement-breakpoint
CREATE TABLE `threads` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`system_prompt` text,
	`model_id` text,
	`mode` text NOT NULL,
	`category` text,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `threads_updated_at` ON `threads` (`updated_at`,`id`);