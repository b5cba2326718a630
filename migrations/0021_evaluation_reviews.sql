CREATE TABLE `evaluation_reviews` (
	`evaluation_id` text NOT NULL,
	`item_id` text NOT NULL,
	`sample` integer DEFAULT 0 NOT NULL,
	`reviewer` text NOT NULL,
	`status` text NOT NULL,
	`ranking` text,
	`reviews` text,
	`confidence` real,
	`error` text,
	`tokens_in` integer,
	`tokens_out` integer,
	`cost_usd` real,
	`completed_at` integer NOT NULL,
	PRIMARY KEY(`evaluation_id`, `item_id`, `sample`, `reviewer`),
	FOREIGN KEY (`evaluation_id`) REFERENCES `evaluations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `evaluation_reviews_completed_at` ON `evaluation_reviews` (`completed_at`);