-- Counters kept in step with battles and comparisons, so the leaderboard reads a few thousand rows
-- whatever the number of votes. Every battle counts once in its own category and once in '' (all).
CREATE TRIGGER `battles_count_insert` AFTER INSERT ON `battles` BEGIN
  INSERT INTO `pair_counts` (`source`, `category`, `flagged`, `model_lo`, `model_hi`, `lo_wins`, `hi_wins`, `ties`, `both_bad`)
  SELECT NEW.`source`, c.`category`, NEW.`flagged`, min(NEW.`model_a`, NEW.`model_b`), max(NEW.`model_a`, NEW.`model_b`),
    (NEW.`winner` = 'model_a' AND NEW.`model_a` < NEW.`model_b`) OR (NEW.`winner` = 'model_b' AND NEW.`model_b` < NEW.`model_a`),
    (NEW.`winner` = 'model_a' AND NEW.`model_a` > NEW.`model_b`) OR (NEW.`winner` = 'model_b' AND NEW.`model_b` > NEW.`model_a`),
    NEW.`winner` = 'tie',
    NEW.`winner` = 'tie (bothbad)'
  FROM (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c
  WHERE true
  ON CONFLICT (`source`, `category`, `flagged`, `model_lo`, `model_hi`) DO UPDATE SET
    `lo_wins` = `lo_wins` + excluded.`lo_wins`,
    `hi_wins` = `hi_wins` + excluded.`hi_wins`,
    `ties` = `ties` + excluded.`ties`,
    `both_bad` = `both_bad` + excluded.`both_bad`;
END;
--> statement-breakpoint
CREATE TRIGGER `battles_count_delete` AFTER DELETE ON `battles` BEGIN
  UPDATE `pair_counts` SET
    `lo_wins` = `lo_wins` - ((OLD.`winner` = 'model_a' AND OLD.`model_a` < OLD.`model_b`) OR (OLD.`winner` = 'model_b' AND OLD.`model_b` < OLD.`model_a`)),
    `hi_wins` = `hi_wins` - ((OLD.`winner` = 'model_a' AND OLD.`model_a` > OLD.`model_b`) OR (OLD.`winner` = 'model_b' AND OLD.`model_b` > OLD.`model_a`)),
    `ties` = `ties` - (OLD.`winner` = 'tie'),
    `both_bad` = `both_bad` - (OLD.`winner` = 'tie (bothbad)')
  WHERE `source` = OLD.`source` AND `flagged` = OLD.`flagged`
    AND `model_lo` = min(OLD.`model_a`, OLD.`model_b`) AND `model_hi` = max(OLD.`model_a`, OLD.`model_b`)
    AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
  INSERT INTO `battle_epochs` (`source`, `epoch`) VALUES (OLD.`source`, 1)
  ON CONFLICT (`source`) DO UPDATE SET `epoch` = `epoch` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `comparisons_count_insert` AFTER INSERT ON `comparisons` BEGIN
  INSERT INTO `model_appearances` (`category`, `model_id`, `appearances`)
  SELECT c.`category`, m.`model_id`, 1
  FROM (SELECT '' AS `category` UNION ALL SELECT NEW.`category` WHERE coalesce(NEW.`category`, '') <> '') AS c,
       (SELECT NEW.`model1_id` AS `model_id` UNION ALL SELECT NEW.`model2_id`) AS m
  WHERE true
  ON CONFLICT (`category`, `model_id`) DO UPDATE SET `appearances` = `appearances` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `comparisons_count_delete` AFTER DELETE ON `comparisons` BEGIN
  UPDATE `model_appearances` SET `appearances` = `appearances` - 1
  WHERE `model_id` IN (OLD.`model1_id`, OLD.`model2_id`) AND (`category` = '' OR `category` = coalesce(OLD.`category`, ''));
END;
