CREATE TABLE `label_counts` (
	`label` text PRIMARY KEY NOT NULL,
	`prompts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `label_pair_counts` (
	`label` text NOT NULL,
	`source` text NOT NULL,
	`category` text NOT NULL,
	`flagged` integer NOT NULL,
	`model_lo` text NOT NULL,
	`model_hi` text NOT NULL,
	`lo_wins` integer DEFAULT 0 NOT NULL,
	`hi_wins` integer DEFAULT 0 NOT NULL,
	`ties` integer DEFAULT 0 NOT NULL,
	`both_bad` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`label`, `source`, `category`, `flagged`, `model_lo`, `model_hi`)
);
--> statement-breakpoint
CREATE TABLE `prompt_labels` (
	`label` text NOT NULL,
	`ref` text NOT NULL,
	`source` text NOT NULL,
	PRIMARY KEY(`label`, `ref`)
);
--> statement-breakpoint
CREATE INDEX `prompt_labels_ref` ON `prompt_labels` (`ref`);--> statement-breakpoint
CREATE TABLE `prompt_repeats` (
	`source` text NOT NULL,
	`category` text NOT NULL,
	`flagged` integer NOT NULL,
	`hash` text NOT NULL,
	`battles` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`source`, `category`, `flagged`, `hash`)
);
--> statement-breakpoint
CREATE INDEX `prompt_repeats_battles` ON `prompt_repeats` (`source`,`category`,`flagged`,`battles`);--> statement-breakpoint
CREATE TABLE `prompts` (
	`ref` text PRIMARY KEY NOT NULL,
	`hash` text,
	`text` text,
	`turns` integer,
	`pending_since` integer
);
--> statement-breakpoint
CREATE INDEX `prompts_hash` ON `prompts` (`hash`);--> statement-breakpoint
CREATE INDEX `prompts_pending` ON `prompts` (`pending_since`) WHERE "prompts"."pending_since" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `battles_comparison` ON `battles` (`comparison_id`);--> statement-breakpoint
CREATE TRIGGER `prompt_labels_count_insert` AFTER INSERT ON `prompt_labels` BEGIN
  INSERT INTO `label_counts` (`label`, `prompts`) VALUES (NEW.`label`, 1)
  ON CONFLICT (`label`) DO UPDATE SET `prompts` = `prompts` + 1;
END;
--> statement-breakpoint
-- A label given to a prompt that already has battles (a voted comparison's, an imported one's) counts them.
CREATE TRIGGER `prompt_labels_pairs_insert` AFTER INSERT ON `prompt_labels` BEGIN
  INSERT INTO `label_pair_counts` (`label`, `source`, `category`, `flagged`, `model_lo`, `model_hi`, `lo_wins`, `hi_wins`, `ties`, `both_bad`)
  SELECT NEW.`label`, b.`source`, CASE c.`k` WHEN 0 THEN '' ELSE b.`category` END, b.`flagged`,
    min(b.`model_a`, b.`model_b`), max(b.`model_a`, b.`model_b`),
    (b.`winner` = 'model_a' AND b.`model_a` < b.`model_b`) OR (b.`winner` = 'model_b' AND b.`model_b` < b.`model_a`),
    (b.`winner` = 'model_a' AND b.`model_a` > b.`model_b`) OR (b.`winner` = 'model_b' AND b.`model_b` > b.`model_a`),
    b.`winner` = 'tie',
    b.`winner` = 'tie (bothbad)'
  FROM (
    SELECT `source`, `category`, `flagged`, `model_a`, `model_b`, `winner` FROM `battles` WHERE `id` = NEW.`ref` AND `comparison_id` IS NULL
    UNION ALL SELECT `source`, `category`, `flagged`, `model_a`, `model_b`, `winner` FROM `battles` WHERE `comparison_id` = NEW.`ref`
  ) AS b
  CROSS JOIN (SELECT 0 AS `k` UNION ALL SELECT 1) AS c
  WHERE c.`k` = 0 OR coalesce(b.`category`, '') <> ''
  ON CONFLICT (`label`, `source`, `category`, `flagged`, `model_lo`, `model_hi`) DO UPDATE SET
    `lo_wins` = `lo_wins` + excluded.`lo_wins`,
    `hi_wins` = `hi_wins` + excluded.`hi_wins`,
    `ties` = `ties` + excluded.`ties`,
    `both_bad` = `both_bad` + excluded.`both_bad`;
END;
--> statement-breakpoint
-- A battle of a labelled prompt (a comparison's later vote or judge) counts under each of its labels.
CREATE TRIGGER `battles_label_pairs_insert` AFTER INSERT ON `battles` BEGIN
  INSERT INTO `label_pair_counts` (`label`, `source`, `category`, `flagged`, `model_lo`, `model_hi`, `lo_wins`, `hi_wins`, `ties`, `both_bad`)
  SELECT l.`label`, NEW.`source`, c.`category`, NEW.`flagged`, min(NEW.`model_a`, NEW.`model_b`), max(NEW.`model_a`, NEW.`model_b`),
    (NEW.`winner` = 'model_a' AND NEW.`model_a` < NEW.`model_b`) OR (NEW.`winner` = 'model_b' AND NEW.`model_b` < NEW.`model_a`),
    (NEW.`winner` = 'model_a' AND NEW.`model_a` > NEW.`model_b`) OR (NEW.`winner` = 'model_b' AND NEW.`model_b` > NEW.`model_a`),
    NEW.`winner` = 'tie',
    NEW.`winner` = 'tie (bothbad)'
  FROM `prompt_labels` l
  CROSS JOIN (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c
  WHERE l.`ref` = coalesce(NEW.`comparison_id`, NEW.`id`)
  ON CONFLICT (`label`, `source`, `category`, `flagged`, `model_lo`, `model_hi`) DO UPDATE SET
    `lo_wins` = `lo_wins` + excluded.`lo_wins`,
    `hi_wins` = `hi_wins` + excluded.`hi_wins`,
    `ties` = `ties` + excluded.`ties`,
    `both_bad` = `both_bad` + excluded.`both_bad`;
END;
--> statement-breakpoint
-- As battles_count_delete: a withdrawn or deleted battle takes its counts back, unless it is moving to the archive.
CREATE TRIGGER `battles_label_pairs_delete` AFTER DELETE ON `battles` WHEN NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
  UPDATE `label_pair_counts` SET
    `lo_wins` = `lo_wins` - ((OLD.`winner` = 'model_a' AND OLD.`model_a` < OLD.`model_b`) OR (OLD.`winner` = 'model_b' AND OLD.`model_b` < OLD.`model_a`)),
    `hi_wins` = `hi_wins` - ((OLD.`winner` = 'model_a' AND OLD.`model_a` > OLD.`model_b`) OR (OLD.`winner` = 'model_b' AND OLD.`model_b` > OLD.`model_a`)),
    `ties` = `ties` - (OLD.`winner` = 'tie'),
    `both_bad` = `both_bad` - (OLD.`winner` = 'tie (bothbad)')
  WHERE `label` IN (SELECT `label` FROM `prompt_labels` WHERE `ref` = coalesce(OLD.`comparison_id`, OLD.`id`))
    AND `source` = OLD.`source` AND `flagged` = OLD.`flagged`
    AND `model_lo` = min(OLD.`model_a`, OLD.`model_b`) AND `model_hi` = max(OLD.`model_a`, OLD.`model_b`)
    AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
END;
--> statement-breakpoint
-- A prompt's hash, once known (a comparison's first vote, an import), counts the battles it already has.
CREATE TRIGGER `prompts_repeats_insert` AFTER INSERT ON `prompts` WHEN NEW.`hash` IS NOT NULL BEGIN
  INSERT INTO `prompt_repeats` (`source`, `category`, `flagged`, `hash`, `battles`)
  SELECT b.`source`, CASE c.`k` WHEN 0 THEN '' ELSE b.`category` END AS `cat`, b.`flagged`, NEW.`hash`, count(*)
  FROM (
    SELECT `source`, `category`, `flagged`, `model_a`, `model_b`, `winner` FROM `battles` WHERE `id` = NEW.`ref` AND `comparison_id` IS NULL
    UNION ALL SELECT `source`, `category`, `flagged`, `model_a`, `model_b`, `winner` FROM `battles` WHERE `comparison_id` = NEW.`ref`
  ) AS b
  CROSS JOIN (SELECT 0 AS `k` UNION ALL SELECT 1) AS c
  WHERE c.`k` = 0 OR coalesce(b.`category`, '') <> ''
  GROUP BY b.`source`, `cat`, b.`flagged`
  ON CONFLICT (`source`, `category`, `flagged`, `hash`) DO UPDATE SET `battles` = `battles` + excluded.`battles`;
END;
--> statement-breakpoint
-- A battle of a prompt whose hash is known (a comparison's later vote or judge) counts as one more ask of it.
CREATE TRIGGER `battles_repeats_insert` AFTER INSERT ON `battles` BEGIN
  INSERT INTO `prompt_repeats` (`source`, `category`, `flagged`, `hash`, `battles`)
  SELECT NEW.`source`, c.`category`, NEW.`flagged`, p.`hash`, 1
  FROM `prompts` p
  CROSS JOIN (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c
  WHERE p.`ref` = coalesce(NEW.`comparison_id`, NEW.`id`) AND p.`hash` IS NOT NULL
  ON CONFLICT (`source`, `category`, `flagged`, `hash`) DO UPDATE SET `battles` = `battles` + 1;
END;
--> statement-breakpoint
-- As battles_count_delete: a withdrawn or deleted battle is one ask fewer, unless it is moving to the archive.
CREATE TRIGGER `battles_repeats_delete` AFTER DELETE ON `battles` WHEN NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
  UPDATE `prompt_repeats` SET `battles` = `battles` - 1
  WHERE `hash` = (SELECT `hash` FROM `prompts` WHERE `ref` = coalesce(OLD.`comparison_id`, OLD.`id`))
    AND `source` = OLD.`source` AND `flagged` = OLD.`flagged`
    AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
END;
