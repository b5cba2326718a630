CREATE TABLE `syntheses` (
	`run_id` text PRIMARY KEY NOT NULL,
	`model_id` text NOT NULL,
	`status` text NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`latency_ms` integer,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`error` text,
	`truncated` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
