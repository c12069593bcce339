package annotate

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestStatusCountsQueuesAndLeases: analyze --status reads, per engine and
// setting, the rows queued (leased or not), leased (lease not expired) and
// failed, and per lease owner its rows, its latest lease's end, whether
// that has passed, and the owner's parts (a default owner names its
// process's start; an older one without it does not).
func TestStatusCountsQueuesAndLeases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	if _, err := pool.Exec(ctx, `
		INSERT INTO analysis_queue (variant, hash, engine, setting, fen, lease_owner, lease_until, failed) VALUES
		(20, 1, 'a', 'depth=1', 'W:W31:B20', 'h:7:20250102T030405Z:0', now() + interval '1 hour', false),
		(20, 2, 'a', 'depth=1', 'W:W31:B20', 'h:7:20250102T030405Z:0', now() + interval '2 hours', false),
		(20, 3, 'a', 'depth=1', 'W:W31:B20', 'old:9:1', now() - interval '1 minute', false),
		(20, 4, 'a', 'depth=1', 'W:W31:B20', NULL, NULL, false),
		(20, 5, 'a', 'depth=1', 'W:W31:B20', NULL, NULL, true),
		(20, 1, 'b', 'movetime=10', 'W:W31:B20', 'old:9:1', now() - interval '1 minute', true)`); err != nil {
		t.Fatal(err)
	}
	qs, ls, err := Status(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	wantQ := []QueueStatus{
		{Engine: "a", Setting: "depth=1", Queued: 4, Leased: 2, Failed: 1},
		{Engine: "b", Setting: "movetime=10", Queued: 0, Leased: 0, Failed: 1},
	}
	if !reflect.DeepEqual(qs, wantQ) {
		t.Errorf("queues %+v\nwant %+v", qs, wantQ)
	}
	// A failed row's lease is no lease: b's row is left out.
	if len(ls) != 2 {
		t.Fatalf("leases %+v, want 2", ls)
	}
	since := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	live, dead := ls[0], ls[1]
	if live.Owner != "h:7:20250102T030405Z:0" || live.Process != "h:7" || live.Worker != "0" || live.Since == nil || !live.Since.Equal(since) ||
		live.Engine != "a" || live.Setting != "depth=1" || live.Positions != 2 || live.Expired ||
		time.Until(live.Until) < 90*time.Minute {
		t.Errorf("the live lease: %+v (since %v)", live, live.Since)
	}
	if dead.Owner != "old:9:1" || dead.Process != "old:9" || dead.Worker != "1" || dead.Since != nil ||
		dead.Positions != 1 || !dead.Expired || time.Until(dead.Until) > 0 {
		t.Errorf("the expired lease: %+v", dead)
	}
}
