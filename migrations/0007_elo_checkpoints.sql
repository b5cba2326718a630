-- Hand-written (drizzle-kit knows no triggers). Online Elo checkpoints: elo_snapshots now holds, per stream, its
-- newest state (key `stream`) and a checkpoint about every 10,000 battles (key `stream|n`), each covering exactly
-- the stream's battles with rowid <= upto_rowid. Deleting a battle removes the snapshots that had counted it and
-- only those, so a withdrawal replays from the checkpoint before the withdrawn battle instead of from the start.
-- `epoch` is no longer read. Snapshots written under the old rule (valid while the epoch held) are dropped.
DELETE FROM `elo_snapshots`;
--> statement-breakpoint
CREATE INDEX `elo_snapshots_upto` ON `elo_snapshots` (`upto_rowid`);
--> statement-breakpoint
CREATE TRIGGER `battles_drop_elo_snapshots` AFTER DELETE ON `battles` BEGIN
  DELETE FROM `elo_snapshots`
  WHERE `upto_rowid` >= OLD.rowid
    AND instr('+' || substr(`stream`, 1, instr(`stream`, '|') - 1) || '+', '+' || OLD.`source` || '+') > 0;
END;
