CREATE TABLE `evaluation_goals` (
	`evaluation_id` text NOT NULL,
	`item_id` text NOT NULL,
	`sample` integer DEFAULT 0 NOT NULL,
	`first` text NOT NULL,
	`second` text NOT NULL,
	`battle_id` text NOT NULL,
	`status` text NOT NULL,
	`winner` text,
	`ended_reason` text,
	`rationale` text,
	`turns` integer,
	`sides` text,
	`error` text,
	`completed_at` integer NOT NULL,
	PRIMARY KEY(`evaluation_id`, `item_id`, `sample`, `first`, `second`),
	FOREIGN KEY (`evaluation_id`) REFERENCES `evaluations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `prompt_set_items` ADD `goal` text;--> statement-breakpoint
ALTER TABLE `prompt_set_items` ADD `persona` text;--> statement-breakpoint
ALTER TABLE `prompt_set_items` ADD `marker` text;