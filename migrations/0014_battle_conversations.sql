-- Imported battles keep their conversations (FastChat's conversation_a/_b, the Kaggle CSV's prompt and responses), so an
-- export gives them back. The row's last columns: what reads only the columns before them (replays, fits) doesn't load them.
ALTER TABLE `battles` ADD `conversation_a` text;--> statement-breakpoint
ALTER TABLE `battles` ADD `conversation_b` text;