package annotate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5/pgxpool"
)

// QueueStatus is the queue of one engine and setting (analyze --status).
type QueueStatus struct {
	Engine  string `json:"engine"`
	Setting string `json:"setting"`
	Queued  int    `json:"queued"` // rows not failed, leased or not
	Leased  int    `json:"leased"` // of those, under a lease that has not expired
	Failed  int    `json:"failed"`
}

// Lease is what one worker holds: its rows of one engine and setting.
type Lease struct {
	Owner     string     `json:"owner"`   // lease_owner: host:pid:start:worker
	Process   string     `json:"process"` // host:pid
	Worker    string     `json:"worker"`
	Since     *time.Time `json:"since"` // the process's start, from a default owner; nil if not known
	Engine    string     `json:"engine"`
	Setting   string     `json:"setting"`
	Positions int        `json:"positions"`
	Until     time.Time  `json:"until"` // the latest lease's end
	Expired   bool       `json:"expired"`
}

// Status reads the queue per engine and setting and the leases held in
// it, in the order of engine, setting and owner.
func Status(ctx context.Context, pool *pgxpool.Pool) ([]QueueStatus, []Lease, error) {
	counts, err := schema.EvalQueueCounts(ctx, pool)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis queue: %w", err)
	}
	var qs []QueueStatus
	for _, c := range counts {
		qs = append(qs, QueueStatus{Engine: c.Engine, Setting: c.Setting, Queued: c.Queued, Leased: c.Leased, Failed: c.Failed})
	}
	holds, err := schema.EvalLeaseHolds(ctx, pool)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis queue leases: %w", err)
	}
	var ls []Lease
	for _, h := range holds {
		l := Lease{Owner: h.Owner, Engine: h.Engine, Setting: h.Setting, Positions: h.Positions, Until: h.Until, Expired: h.Expired}
		l.Process, l.Worker, l.Since = splitOwner(l.Owner)
		ls = append(ls, l)
	}
	return qs, ls, nil
}

// splitOwner reads a lease owner of the default form host:pid:start:worker
// (an older host:pid:worker has no start); another form is all process.
func splitOwner(owner string) (process, worker string, since *time.Time) {
	parts := strings.Split(owner, ":")
	if len(parts) < 3 {
		return owner, "", nil
	}
	worker = parts[len(parts)-1]
	if len(parts) >= 4 {
		if t, err := time.Parse(ownerTime, parts[len(parts)-2]); err == nil {
			return strings.Join(parts[:len(parts)-2], ":"), worker, &t
		}
	}
	return strings.Join(parts[:len(parts)-1], ":"), worker, nil
}
