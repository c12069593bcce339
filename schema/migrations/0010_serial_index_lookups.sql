-- 0010: the index tables' lookups run without parallel workers.
--
-- draughtsdb_games_at and the opening tree read one 12-bit prefix of
-- position_index or opening_index through its btree: well under a
-- millisecond of work. Right after an import, before autovacuum has
-- analyzed the tables, the planner has no statistics, guesses them large,
-- and chose parallel plans whose workers took 20-30 ms to start per
-- lookup (250,000 imported games: 300 lookups 2.9-4.1 s; with this
-- setting 0.13-0.23 s; after an ANALYZE 0.25 s). No query of draughtsdb
-- gains from scanning these tables in parallel.
ALTER TABLE position_index SET (parallel_workers = 0);
ALTER TABLE opening_index SET (parallel_workers = 0);
