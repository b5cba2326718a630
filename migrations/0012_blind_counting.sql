ALTER TABLE `comparisons` ADD `counted_at` integer;--> statement-breakpoint
CREATE INDEX `comparisons_uncounted` ON `comparisons` (`created_at`) WHERE "comparisons"."counted_at" IS NULL;
--> statement-breakpoint
-- Hand-written (drizzle-kit knows no triggers). A blind comparison names its models only at its first vote, so it
-- counts in the appearances only from then, or once its vote window passed unvoted (worker/db/counting-queries.ts):
-- the counters follow `counted_at`, not the row's creation. Every comparison already here was counted at its
-- creation, so it keeps counting.
UPDATE `comparisons` SET `counted_at` = `created_at`;
--> statement-breakpoint
DROP TRIGGER `comparisons_count_insert`;
--> statement-breakpoint
CREATE TRIGGER `comparisons_count_insert` AFTER INSERT ON `comparisons` WHEN NEW.`counted_at` IS NOT NULL BEGIN
  INSERT INTO `model_appearances` (`category`, `model_id`, `appearances`)
  SELECT c.`category`, m.`model_id`, 1
  FROM (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c,
       (SELECT NEW.`model1_id` AS `model_id` UNION ALL SELECT NEW.`model2_id`) AS m
  WHERE true
  ON CONFLICT (`category`, `model_id`) DO UPDATE SET `appearances` = `appearances` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `comparisons_count_release` AFTER UPDATE OF `counted_at` ON `comparisons`
WHEN OLD.`counted_at` IS NULL AND NEW.`counted_at` IS NOT NULL BEGIN
  INSERT INTO `model_appearances` (`category`, `model_id`, `appearances`)
  SELECT c.`category`, m.`model_id`, 1
  FROM (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c,
       (SELECT NEW.`model1_id` AS `model_id` UNION ALL SELECT NEW.`model2_id`) AS m
  WHERE true
  ON CONFLICT (`category`, `model_id`) DO UPDATE SET `appearances` = `appearances` + 1;
END;
--> statement-breakpoint
DROP TRIGGER `comparisons_count_delete`;
--> statement-breakpoint
CREATE TRIGGER `comparisons_count_delete` AFTER DELETE ON `comparisons`
WHEN OLD.`counted_at` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
  UPDATE `model_appearances` SET `appearances` = `appearances` - 1
  WHERE `model_id` IN (OLD.`model1_id`, OLD.`model2_id`) AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
END;
