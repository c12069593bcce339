package schema

import (
	"context"
	_ "embed"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed leases.sql
var leasesText string

var (
	leasesSQL               = storeSQL("leases.sql", leasesText)
	sqlLeaseSelectGames     = leaseWhereTemplate(leasesSQL.get("select-games"))
	sqlLeaseCountEvaluated  = leasesSQL.get("count-evaluated")
	sqlLeaseEnqueue         = leasesSQL.get("enqueue")
	sqlLeaseQueued          = leasesSQL.get("queued")
	sqlLeaseAnnotate        = leasesSQL.get("annotate")
	sqlLeaseStatusQueues    = leasesSQL.get("status-queues")
	sqlLeaseStatusLeases    = leasesSQL.get("status-leases")
	sqlLeaseFailExhaustedOf = leasesSQL.get("fail-exhausted-of")
	sqlLeaseStillQueued     = leasesSQL.get("still-queued")
	sqlLeaseRelease         = leasesSQL.get("release")
	sqlLeaseClaimRun        = leasesSQL.get("claim-run")
	sqlLeaseFailExhausted   = leasesSQL.get("fail-exhausted")
	sqlLeaseClaim           = leasesSQL.get("claim")
	sqlLeaseDequeue         = leasesSQL.get("dequeue")
	sqlLeaseOthers          = leasesSQL.get("others")
	sqlLeaseRenew           = leasesSQL.get("renew")
	sqlLeaseStore           = leasesSQL.get("store")
)

// leaseWhereLine is the line of select-games that the user's filter
// replaces, with the line ends around it.
const leaseWhereLine = "\nTRUE -- the filter\n"

// leaseWhereTemplate checks that stmt has the filter's line once, so that
// the replacement cannot miss it or hit a comment.
func leaseWhereTemplate(stmt string) [2]string {
	if strings.Count(stmt, leaseWhereLine) != 1 {
		panic("schema: leases.sql select-games: want the line " + strings.TrimSpace(leaseWhereLine) + " once")
	}
	head, tail, _ := strings.Cut(stmt, leaseWhereLine)
	return [2]string{head + "\n", "\n" + tail}
}

// SelectGames calls fn with each game of the selection of draughtsdb
// analyze, by id: the games where the SQL boolean expression where holds
// (the user's --where text, run through ReadOnlyTimeout with timeout as
// statement_timeout and nowhere else), of the variant numbered variant (-1:
// every variant), at most limit of them (-1: all). fn's error stops the
// scan and is returned; g.Moves is fn's to keep.
func SelectGames(ctx context.Context, pool *pgxpool.Pool, where string, timeout time.Duration, variant int, limit int64, fn func(g *StoredGame) error) error {
	q := sqlLeaseSelectGames[0] + where + sqlLeaseSelectGames[1]
	return ReadOnlyTimeout(ctx, pool, timeout, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q, variant, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var g StoredGame
			if err := rows.Scan(&g.ID, &g.Variant, &g.StartFEN, &g.Moves); err != nil {
				return err
			}
			if err := fn(&g); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// EvalQueue is the evaluation queue (analysis_queue) of one engine and
// setting, and the evaluations they store. Positions go in and come out
// as parallel arrays (variants and hashes, as stored), the form the
// statements unnest.
type EvalQueue struct {
	Pool            *pgxpool.Pool
	Engine, Setting string
	// Version is the engine_version stored evaluations get. With
	// Reevaluate, only an evaluation of that version counts as done, and
	// one of another version is replaced; without it any evaluation of
	// the engine and setting counts.
	Version    string
	Reevaluate bool
}

// current is the version an evaluation must have to count as done: nil
// (any) unless Reevaluate.
func (q *EvalQueue) current() *string {
	if !q.Reevaluate {
		return nil
	}
	return &q.Version
}

// Enqueue puts the positions (variants, hashes and FENs) that are not yet
// evaluated into the queue, in one transaction (a failed row of one is
// made claimable again), and returns how many were evaluated already and
// how many rows it inserted or made claimable.
func (q *EvalQueue) Enqueue(ctx context.Context, variants []int16, hashes []int64, fens []string) (skipped, enqueued int, err error) {
	err = WithTx(ctx, q.Pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, sqlLeaseCountEvaluated, variants, hashes, q.Engine, q.Setting, q.current()).Scan(&skipped); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, sqlLeaseEnqueue, variants, hashes, fens, q.Engine, q.Setting, q.current())
		enqueued = int(tag.RowsAffected())
		return err
	})
	return skipped, enqueued, err
}

// Queued counts the rows of the queue that are not failed.
func (q *EvalQueue) Queued(ctx context.Context) (n int, err error) {
	err = q.Pool.QueryRow(ctx, sqlLeaseQueued, q.Engine, q.Setting).Scan(&n)
	return n, err
}

// EvalClaim is a queue row a claim leased.
type EvalClaim struct {
	Ord     int // ClaimRun: the position's index in its arrays, from 1
	Variant int16
	Hash    int64
	FEN     string
	// Evaluated: the position was evaluated already (enqueued again by a
	// run that raced with the evaluation); its row is deleted.
	Evaluated bool
}

// ClaimRun leases, for lease, as owner, the claimable rows of the
// positions, in their order: not failed, claimed fewer than maxAttempts
// times, lease absent or expired, and not locked by another claim. It
// returns them with their ordinals, and deletes those evaluated already.
// There is no transaction around it: the UPDATE leases the rows on its
// own (one round trip where BEGIN and COMMIT made three), and the rows it
// finds evaluated already are the owner's until it deletes them (if it
// dies first, their lease expires and a claim deletes them).
func (q *EvalQueue) ClaimRun(ctx context.Context, owner string, lease time.Duration, maxAttempts int, variants []int16, hashes []int64) ([]EvalClaim, error) {
	rows, err := q.Pool.Query(ctx, sqlLeaseClaimRun, q.Engine, q.Setting, variants, hashes, owner, lease.Milliseconds(),
		len(variants), maxAttempts, q.current())
	if err != nil {
		return nil, err
	}
	var got []EvalClaim
	for rows.Next() {
		var c EvalClaim
		if err := rows.Scan(&c.Ord, &c.Variant, &c.Hash, &c.FEN, &c.Evaluated); err != nil {
			rows.Close()
			return nil, err
		}
		got = append(got, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return got, q.dequeueEvaluated(ctx, q.Pool, got)
}

// Claim leases up to n claimable rows, for lease, as owner, in no
// particular order, in one transaction that first marks failed the rows
// claimed maxAttempts times whose lease expired (their workers kept
// dying). It deletes the rows evaluated already, and returns every row it
// leased.
func (q *EvalQueue) Claim(ctx context.Context, owner string, lease time.Duration, maxAttempts, n int) ([]EvalClaim, error) {
	var got []EvalClaim
	err := WithTx(ctx, q.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sqlLeaseFailExhausted, q.Engine, q.Setting, maxAttempts); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, sqlLeaseClaim, q.Engine, q.Setting, owner, lease.Milliseconds(), n, q.current())
		if err != nil {
			return err
		}
		for rows.Next() {
			var c EvalClaim
			if err := rows.Scan(&c.Variant, &c.Hash, &c.FEN, &c.Evaluated); err != nil {
				rows.Close()
				return err
			}
			got = append(got, c)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		return q.dequeueEvaluated(ctx, tx, got)
	})
	return got, err
}

// dequeueEvaluated deletes the rows of the claims that were evaluated
// already.
func (q *EvalQueue) dequeueEvaluated(ctx context.Context, db Execer, cs []EvalClaim) error {
	var vs []int16
	var hs []int64
	for _, c := range cs {
		if c.Evaluated {
			vs, hs = append(vs, c.Variant), append(hs, c.Hash)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	_, err := db.Exec(ctx, sqlLeaseDequeue, vs, hs, q.Engine, q.Setting)
	return err
}

// EvalQueued is a position found still queued (StillQueued).
type EvalQueued struct {
	Ord  int  // its index in the arrays, from 1
	Mine bool // a worker of the process holds it
	// LeaseLeft is how long its lease has left (<= 0: expired, or none).
	LeaseLeft time.Duration
}

// StillQueued returns, in order, which of the positions are still in the
// queue and not failed, whether a worker of process holds each (its
// owners are process:N), and how long their leases have left, in one
// transaction that first marks failed the rows among them claimed
// maxAttempts times whose lease expired.
func (q *EvalQueue) StillQueued(ctx context.Context, process string, maxAttempts int, variants []int16, hashes []int64) ([]EvalQueued, error) {
	var out []EvalQueued
	err := WithTx(ctx, q.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sqlLeaseFailExhaustedOf, q.Engine, q.Setting, variants, hashes, maxAttempts); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, sqlLeaseStillQueued, q.Engine, q.Setting, variants, hashes, process)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e EvalQueued
			var ms float64
			if err := rows.Scan(&e.Ord, &e.Mine, &ms); err != nil {
				return err
			}
			e.LeaseLeft = time.Duration(ms) * time.Millisecond
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

// Others returns how many unfailed rows remain, how many of them the
// workers of process hold (owners process:N), and how long until the
// first lease expires.
func (q *EvalQueue) Others(ctx context.Context, process string) (remaining, own int, next time.Duration, err error) {
	var ms float64
	err = q.Pool.QueryRow(ctx, sqlLeaseOthers, q.Engine, q.Setting, process).Scan(&remaining, &own, &ms)
	return remaining, own, time.Duration(ms) * time.Millisecond, err
}

// RenewLeases extends every lease of owner by lease from now.
func RenewLeases(ctx context.Context, db Execer, owner string, lease time.Duration) error {
	_, err := db.Exec(ctx, sqlLeaseRenew, owner, lease.Milliseconds())
	return err
}

// ReleaseLeases gives back every lease of owner, as if the claims had not
// been made: they do not count as attempts.
func ReleaseLeases(ctx context.Context, db Execer, owner string) error {
	_, err := db.Exec(ctx, sqlLeaseRelease, owner)
	return err
}

// Evaluation is an engine's verdict on a position, as stored in
// evaluations.
type Evaluation struct {
	Variant int16
	Hash    int64
	Score   int32
	Mate    bool
	Depth   int32
	Best    string // "" (stored NULL) when there is no legal move
	PV      string
	Nodes   int64
	TimeMs  int32
}

// EvalFailure is a position the engine failed on, with the error.
type EvalFailure struct {
	Variant int16
	Hash    int64
	Error   string
}

// Store stores the evaluations (with Reevaluate, replacing those of
// another version), deletes the queue rows they answer and marks failed
// the rows of failures that owner leases, in one statement (one round
// trip, its own transaction), and returns how many evaluations it wrote.
func (q *EvalQueue) Store(ctx context.Context, owner string, evals []Evaluation, failures []EvalFailure) (written int, err error) {
	n := len(evals)
	vs, hs := make([]int16, n), make([]int64, n)
	scores, mates, depths := make([]int32, n), make([]bool, n), make([]int32, n)
	bests, pvs := make([]*string, n), make([]string, n)
	nodes, times := make([]int64, n), make([]int32, n)
	for i, e := range evals {
		vs[i], hs[i] = e.Variant, e.Hash
		scores[i], mates[i], depths[i] = e.Score, e.Mate, e.Depth
		if e.Best != "" {
			b := e.Best
			bests[i] = &b
		}
		pvs[i], nodes[i], times[i] = e.PV, e.Nodes, e.TimeMs
	}
	bvs, bhs, errs := make([]int16, len(failures)), make([]int64, len(failures)), make([]string, len(failures))
	for i, f := range failures {
		bvs[i], bhs[i], errs[i] = f.Variant, f.Hash, f.Error
	}
	err = q.Pool.QueryRow(ctx, sqlLeaseStore,
		vs, hs, q.Engine, q.Setting, scores, mates, depths, bests, pvs, nodes, times, q.Version,
		bvs, bhs, errs, owner, q.Reevaluate).Scan(&written)
	return written, err
}

// AnnotatedPlies are plies to annotate, as parallel arrays: the game, the
// ply (from 1), the variant, and the hashes of the positions before and
// after it.
type AnnotatedPlies struct {
	Games    []int64
	Plies    []int32
	Variants []int16
	Before   []int64
	After    []int64
}

// AnnotationClasses are how many plies Annotate annotated, and how many
// of them it classed as each of the three errors.
type AnnotationClasses struct {
	Moves, Inaccuracies, Mistakes, Blunders int64
}

// Annotate writes (or rewrites) move_annotations for the plies whose
// positions before and after are both evaluated by the queue's engine and
// setting: the loss, both scores capped at scoreCap (see annotate.Loss),
// and its class, "blunder" from blunder on, "mistake" from mistake,
// "inaccuracy" from inaccuracy, else "ok".
func (q *EvalQueue) Annotate(ctx context.Context, p AnnotatedPlies, inaccuracy, mistake, blunder, scoreCap int) (AnnotationClasses, error) {
	var c AnnotationClasses
	rows, err := q.Pool.Query(ctx, sqlLeaseAnnotate, p.Games, p.Plies, p.Variants, p.Before, p.After,
		q.Engine, q.Setting, inaccuracy, mistake, blunder, scoreCap)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	for rows.Next() {
		var class string
		if err := rows.Scan(&class); err != nil {
			return c, err
		}
		c.Moves++
		switch class {
		case "inaccuracy":
			c.Inaccuracies++
		case "mistake":
			c.Mistakes++
		case "blunder":
			c.Blunders++
		}
	}
	return c, rows.Err()
}

// EvalQueueCount is the queue of one engine and setting.
type EvalQueueCount struct {
	Engine, Setting string
	Queued          int // rows not failed, leased or not
	Leased          int // of those, under a lease that has not expired
	Failed          int
}

// EvalLeaseHold is what one lease owner holds of one engine and setting.
type EvalLeaseHold struct {
	Owner, Engine, Setting string
	Positions              int
	Until                  time.Time // the latest lease's end
	Expired                bool
}

// EvalQueueCounts reads the queue per engine and setting, in their
// order.
func EvalQueueCounts(ctx context.Context, q Querier) ([]EvalQueueCount, error) {
	rows, err := q.Query(ctx, sqlLeaseStatusQueues)
	if err != nil {
		return nil, err
	}
	var qs []EvalQueueCount
	for rows.Next() {
		var c EvalQueueCount
		if err := rows.Scan(&c.Engine, &c.Setting, &c.Queued, &c.Leased, &c.Failed); err != nil {
			rows.Close()
			return nil, err
		}
		qs = append(qs, c)
	}
	return qs, rows.Err()
}

// EvalLeaseHolds reads the leases held in the queue, in the order of
// engine, setting and owner.
func EvalLeaseHolds(ctx context.Context, q Querier) ([]EvalLeaseHold, error) {
	rows, err := q.Query(ctx, sqlLeaseStatusLeases)
	if err != nil {
		return nil, err
	}
	var ls []EvalLeaseHold
	for rows.Next() {
		var l EvalLeaseHold
		if err := rows.Scan(&l.Owner, &l.Engine, &l.Setting, &l.Positions, &l.Until, &l.Expired); err != nil {
			rows.Close()
			return nil, err
		}
		ls = append(ls, l)
	}
	return ls, rows.Err()
}
