-- Hand-written (drizzle-kit knows no triggers). The battle archive: once QUORUM_ARCHIVE_AFTER_HOURS is set, the
-- oldest battles move to R2 in segments, each a contiguous range of rowids from the first remaining one; D1 keeps
-- the counters and Elo snapshots they contributed to, and one row per segment here. The model_votes rows of the
-- segment's human battles go with them (unless a judge's verdict on that comparison still needs its vote). Old
-- comparisons' messages (copies: each comparison's room keeps its conversation) move in chunks too; their costs
-- stay in spend_entries, as a deleted message's do. Moving a battle out is not
-- deleting it: while a row of `archiving` exists (only inside the archive's own transaction) the delete triggers
-- leave the counters, epochs and Elo snapshots as they are.
CREATE TABLE `battle_archive` (
	`key` text PRIMARY KEY NOT NULL,
	`from_rowid` integer NOT NULL,
	`to_rowid` integer NOT NULL,
	`battles` integer NOT NULL,
	`model_votes` integer NOT NULL,
	`min_tstamp` real NOT NULL,
	`max_tstamp` real NOT NULL,
	`import_lines` text NOT NULL,
	`archived_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `battle_archive_to` ON `battle_archive` (`to_rowid`);
--> statement-breakpoint
CREATE TABLE `conversation_archive` (
	`key` text PRIMARY KEY NOT NULL,
	`through_created_at` integer NOT NULL,
	`through_id` text NOT NULL,
	`comparisons` integer NOT NULL,
	`messages` integer NOT NULL,
	`archived_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversation_archive_through` ON `conversation_archive` (`through_created_at`, `through_id`);
--> statement-breakpoint
CREATE TABLE `archiving` (
	`on` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP TRIGGER `battles_count_delete`;
--> statement-breakpoint
CREATE TRIGGER `battles_count_delete` AFTER DELETE ON `battles` WHEN NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
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
DROP TRIGGER `battles_drop_elo_snapshots`;
--> statement-breakpoint
CREATE TRIGGER `battles_drop_elo_snapshots` AFTER DELETE ON `battles` WHEN NOT EXISTS (SELECT 1 FROM `archiving`) BEGIN
  DELETE FROM `elo_snapshots`
  WHERE `upto_rowid` >= OLD.rowid
    AND instr('+' || substr(`stream`, 1, instr(`stream`, '|') - 1) || '+', '+' || OLD.`source` || '+') > 0;
END;
--> statement-breakpoint
-- SQLite gives a new row the largest rowid plus one. Had every battle after the archive been deleted since, that
-- would be a rowid the archive already holds: the row moves past the archive instead, so rowids keep rising.
CREATE TRIGGER `battles_rowid_past_archive` AFTER INSERT ON `battles`
WHEN NEW.rowid <= (SELECT max(`to_rowid`) FROM `battle_archive`) BEGIN
  UPDATE `battles` SET rowid = (SELECT max(`to_rowid`) FROM `battle_archive`) + 1 WHERE rowid = NEW.rowid;
END;
