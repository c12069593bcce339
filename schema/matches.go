package schema

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed matches.sql
var matchesText string

var (
	matchesSQL      = storeSQL("matches.sql", matchesText)
	sqlMatchResults = matchesSQL.get("results")
)

// Match is the stored side of one engine match, identified by its key (a
// hex digest of the match's settings): the appended source holding its
// games, read and removed here and written by ingest.Append. OpenMatch
// holds a lock on the key until Close, so that two processes never play
// the same match at once (their rounds would collide).
type Match struct {
	Key    string
	pool   *pgxpool.Pool
	unlock func()
}

// OpenMatch takes the match's lock, or fails at once when another process
// holds it. key must be at least 15 hex digits: they name the lock.
func OpenMatch(ctx context.Context, pool *pgxpool.Pool, key string) (*Match, error) {
	if len(key) < 15 {
		return nil, fmt.Errorf("match key %q: want at least 15 hex digits", key)
	}
	lock, err := strconv.ParseInt(key[:15], 16, 64)
	if err != nil {
		return nil, fmt.Errorf("match key %q: %w", key, err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	unlock, got, err := TryLock(ctx, conn, lock)
	if err != nil || !got {
		conn.Release()
		if err == nil {
			err = fmt.Errorf("match %s is being played by another process", key)
		}
		return nil, err
	}
	return &Match{Key: key, pool: pool, unlock: func() { unlock(); conn.Release() }}, nil
}

// Close gives the match's lock back.
func (m *Match) Close() { m.unlock() }

// Source returns the id of the match's source and the games it holds; ok
// is false before the first game is stored.
func (m *Match) Source(ctx context.Context) (id int64, games int, ok bool, err error) {
	return AppendedSource(ctx, m.pool, m.Key)
}

// Remove deletes the match's source and its games, and returns how many
// games it held.
func (m *Match) Remove(ctx context.Context) (int, error) {
	id, n, ok, err := m.Source(ctx)
	if err != nil || !ok {
		return 0, err
	}
	_, err = m.pool.Exec(ctx, sqlDeleteSource, id) // the match lock keeps this match's appends out meanwhile
	return n, err
}

// Results reads the stored games' results by round (see matches.sql). A
// gap in the rounds, or fewer results than the source's games, is an
// error: the match cannot resume from such a source.
func (m *Match) Results(ctx context.Context) ([]replay.Result, error) {
	id, n, ok, err := m.Source(ctx)
	if err != nil || !ok {
		return nil, err
	}
	rows, err := m.pool.Query(ctx, sqlMatchResults, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []replay.Result
	for rows.Next() {
		var ord int32
		var code int16
		if err := rows.Scan(&ord, &code); err != nil {
			return nil, err
		}
		if int(ord) != len(out)+1 {
			return nil, fmt.Errorf("match source %d: game %d is not stored (ordinal %d follows %d); --restart plays the match anew", id, len(out)+1, ord, len(out))
		}
		out = append(out, codec.ResultOf(code))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) != n {
		return nil, fmt.Errorf("match source %d: %d games read, %d stored; --restart plays the match anew", id, n, len(out))
	}
	return out, nil
}
