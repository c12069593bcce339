package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// Right after an import the index tables have no statistics, and the
// planner, left to guess their size, ran draughtsdb_games_at and the
// opening tree's one-prefix lookups as parallel plans: measured on 250,000
// imported games, 300 lookups took 2.9-4.1 s, almost all of it starting
// the workers (0.36 ms of work in 22-27 ms each), against 0.13-0.23 s once
// the tables say parallel_workers = 0 (0010); measured again on another
// 250,000 imported games, 300 calls of draughtsdb_games_at took 1,903 ms
// without the setting and 115 ms with it (the same query written out, not
// through the function, 110 and 104 ms). A lookup reads one prefix
// through its index and never gains from workers. The test makes parallel
// plans free (and the index scans off), so a table that still allows
// workers gets a Gather.
func TestIndexLookupsAreNotParallel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, set := range []string{
		"SET parallel_setup_cost = 0", "SET parallel_tuple_cost = 0",
		"SET min_parallel_table_scan_size = 0", "SET min_parallel_index_scan_size = 0",
		"SET max_parallel_workers_per_gather = 2", "SET enable_indexscan = off", "SET enable_bitmapscan = off",
	} {
		if _, err := conn.Exec(ctx, set); err != nil {
			t.Fatal(err)
		}
	}
	for name, q := range map[string]string{
		// What draughtsdb_games_at reads.
		"position_index": `SELECT p.first_game, p.entries FROM position_index p WHERE p.bucket = 5`,
		"opening_index":  `SELECT * FROM opening_index WHERE variant = 20 AND bucket = 5`,
	} {
		var plan string
		rows, err := conn.Query(ctx, "EXPLAIN "+q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan += line + "\n"
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(plan, "Gather") || strings.Contains(plan, "Parallel") {
			t.Errorf("%s: a parallel plan:\n%s", name, plan)
		}
	}
}
