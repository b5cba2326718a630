ALTER TABLE `goal_battles` ADD `evaluation_id` text;--> statement-breakpoint
CREATE INDEX `goal_battles_evaluation` ON `goal_battles` (`evaluation_id`,`created_at`,`id`);