CREATE TABLE `model_counts` (
	`source` text NOT NULL,
	`category` text NOT NULL,
	`flagged` integer NOT NULL,
	`model_id` text NOT NULL,
	`wins` integer DEFAULT 0 NOT NULL,
	`battles` integer DEFAULT 0 NOT NULL,
	`ties` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`source`, `category`, `flagged`, `model_id`)
);
--> statement-breakpoint
-- Each model's sums of its pairs in pair_counts, kept by the same rules: in the battle's category and in ''
-- (all), a tie a win for both, both-bad for neither; a model battling itself counts nowhere.
INSERT INTO `model_counts` (`source`, `category`, `flagged`, `model_id`, `wins`, `battles`, `ties`)
SELECT `source`, `category`, `flagged`, `model_id`, sum(`wins`), sum(`battles`), sum(`ties`) FROM (
  SELECT `source`, `category`, `flagged`, `model_lo` AS `model_id`, `lo_wins` + `ties` AS `wins`,
    `lo_wins` + `hi_wins` + `ties` + `both_bad` AS `battles`, `ties` FROM `pair_counts` WHERE `model_lo` <> `model_hi`
  UNION ALL
  SELECT `source`, `category`, `flagged`, `model_hi`, `hi_wins` + `ties`,
    `lo_wins` + `hi_wins` + `ties` + `both_bad`, `ties` FROM `pair_counts` WHERE `model_lo` <> `model_hi`
) GROUP BY `source`, `category`, `flagged`, `model_id`;
--> statement-breakpoint
CREATE TRIGGER `battles_model_counts_insert` AFTER INSERT ON `battles` WHEN NEW.`model_a` <> NEW.`model_b` BEGIN
  INSERT INTO `model_counts` (`source`, `category`, `flagged`, `model_id`, `wins`, `battles`, `ties`)
  SELECT NEW.`source`, c.`category`, NEW.`flagged`, m.`model_id`, m.`wins`, 1, NEW.`winner` = 'tie'
  FROM (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c,
       (SELECT NEW.`model_a` AS `model_id`, NEW.`winner` IN ('model_a', 'tie') AS `wins`
        UNION ALL SELECT NEW.`model_b`, NEW.`winner` IN ('model_b', 'tie')) AS m
  WHERE true
  ON CONFLICT (`source`, `category`, `flagged`, `model_id`) DO UPDATE SET
    `wins` = `wins` + excluded.`wins`,
    `battles` = `battles` + excluded.`battles`,
    `ties` = `ties` + excluded.`ties`;
END;
--> statement-breakpoint
CREATE TRIGGER `battles_model_counts_delete` AFTER DELETE ON `battles`
WHEN OLD.`model_a` <> OLD.`model_b` AND NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
  UPDATE `model_counts` SET
    `wins` = `wins` - (CASE WHEN `model_id` = OLD.`model_a` THEN OLD.`winner` IN ('model_a', 'tie') ELSE OLD.`winner` IN ('model_b', 'tie') END),
    `battles` = `battles` - 1,
    `ties` = `ties` - (OLD.`winner` = 'tie')
  WHERE `source` = OLD.`source` AND `flagged` = OLD.`flagged` AND `model_id` IN (OLD.`model_a`, OLD.`model_b`)
    AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
END;
