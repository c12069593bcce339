package annotate

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	var qs []QueueStatus
	rows, err := pool.Query(ctx, `
		SELECT engine, setting, count(*) FILTER (WHERE NOT failed),
		       count(*) FILTER (WHERE NOT failed AND lease_until > now()), count(*) FILTER (WHERE failed)
		FROM analysis_queue GROUP BY engine, setting ORDER BY engine, setting`)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis queue: %w", err)
	}
	for rows.Next() {
		var q QueueStatus
		if err := rows.Scan(&q.Engine, &q.Setting, &q.Queued, &q.Leased, &q.Failed); err != nil {
			rows.Close()
			return nil, nil, err
		}
		qs = append(qs, q)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("analysis queue: %w", err)
	}
	var ls []Lease
	rows, err = pool.Query(ctx, `
		SELECT lease_owner, engine, setting, count(*), max(lease_until), max(lease_until) < now()
		FROM analysis_queue WHERE lease_owner IS NOT NULL AND NOT failed
		GROUP BY lease_owner, engine, setting ORDER BY engine, setting, lease_owner`)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis queue leases: %w", err)
	}
	for rows.Next() {
		var l Lease
		if err := rows.Scan(&l.Owner, &l.Engine, &l.Setting, &l.Positions, &l.Until, &l.Expired); err != nil {
			rows.Close()
			return nil, nil, err
		}
		l.Process, l.Worker, l.Since = splitOwner(l.Owner)
		ls = append(ls, l)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("analysis queue leases: %w", err)
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
