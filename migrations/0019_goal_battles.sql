CREATE TABLE `goal_battle_messages` (
	`battle_id` text NOT NULL,
	`turn` integer NOT NULL,
	`side` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`tokens_in` integer,
	`tokens_out` integer,
	`latency_ms` integer,
	`goal_check` text,
	`error` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`battle_id`, `side`, `turn`, `role`),
	FOREIGN KEY (`battle_id`) REFERENCES `goal_battles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `goal_battles` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`state` text NOT NULL,
	`goal` text NOT NULL,
	`system_prompt` text DEFAULT '' NOT NULL,
	`judge_mode` text NOT NULL,
	`user_mode` text NOT NULL,
	`user_model_id` text,
	`persona` text,
	`category` text,
	`max_turns` integer NOT NULL,
	`current_turn` integer DEFAULT 0 NOT NULL,
	`contestant_a` text NOT NULL,
	`contestant_b` text NOT NULL,
	`display_name_a` text NOT NULL,
	`display_name_b` text NOT NULL,
	`sides` text NOT NULL,
	`ended_reason` text,
	`winner` text,
	`rationale` text,
	`vote_choice` text,
	`started_at` integer,
	`ended_at` integer,
	`settings` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `goal_battles_created_at` ON `goal_battles` (`created_at`,`id`);