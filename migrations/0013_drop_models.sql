-- Nothing read or wrote this table: the model catalog and its prices live in code (worker/providers/), with
-- QUORUM_PRICES for overrides.
DROP TABLE `models`;
