package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// RepairSummary is what RepairSources did.
type RepairSummary struct {
	Sources int `json:"sources"`
	Games   int `json:"games"`
	// Warned is the games given a warning that their result contradicts
	// their final position.
	Warned int `json:"warned"`
	// Named is the games given players from their P1/P2 tags.
	Named int `json:"named"`
}

// RepairSources finishes the repairs that a migration marked in
// sources.repair and that SQL alone cannot do (migration 0006, which swapped
// the results of English games read with the wrong first mover): for each
// marked source, it re-checks every game's result against its final
// position (replay.CheckFinal: the warning a fresh import would give), names
// the players of games tagged only P1/P2 (replay.Players), and recounts the
// source's opening statistics at its own depth (openings.CountSource). It
// is idempotent, holds the import lock (schema.ImportLock), and clears each
// source's mark in the transaction that recounts it, so an interrupted
// repair resumes where it stopped. Commands run it after migrating; it
// costs one query when nothing is marked.
func RepairSources(ctx context.Context, pool *pgxpool.Pool, progress func(done, total int)) (*RepairSummary, error) {
	sum := &RepairSummary{}
	marked, err := schema.CountMarkedSources(ctx, pool)
	if err != nil {
		return nil, fmt.Errorf("repair: %w", err)
	}
	if marked == 0 {
		return sum, nil
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	started := false // the summary is returned with the errors of the repairs themselves
	err = schema.WithLock(ctx, conn, schema.ImportLock, func() error {
		reader, err := pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer reader.Release()
		srcs, err := schema.MarkedSources(ctx, conn)
		if err != nil {
			return err
		}
		total := 0
		for _, s := range srcs {
			total += s.Games
		}
		started = true
		for _, s := range srcs {
			if err := repairGames(ctx, reader.Conn(), conn.Conn(), s.ID, sum); err != nil {
				return fmt.Errorf("repair source %d: %w", s.ID, err)
			}
			if s.OpeningDepth != nil {
				if err := recountSource(ctx, reader.Conn(), conn.Conn(), s.ID, int(*s.OpeningDepth), func(n int) {
					if progress != nil {
						progress(sum.Games+n, total)
					}
				}); err != nil {
					return fmt.Errorf("repair source %d: %w", s.ID, err)
				}
			} else if err := schema.ClearRepairMark(ctx, conn, s.ID); err != nil {
				return err
			}
			sum.Sources++
			sum.Games += s.Games
		}
		return nil
	})
	if err != nil && !started {
		return nil, err
	}
	return sum, err
}

// recountSource recounts the opening statistics of a source at depth and
// clears its repair mark in one transaction on conn, so a repair that
// stops leaves the source marked with its old statistics or unmarked with
// new ones.
func recountSource(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, depth int, progress func(int)) error {
	return schema.WithTx(ctx, conn, func(tx pgx.Tx) error {
		if _, _, err := openings.CountSource(ctx, reader, tx, sourceID, depth, progress); err != nil {
			return err
		}
		return schema.ClearRepairMark(ctx, tx, sourceID)
	})
}

// repairGames re-checks the results of one source's games against their
// final positions and names players from P1/P2, in one transaction.
func repairGames(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, sum *RepairSummary) error {
	return schema.WithTx(ctx, conn, func(tx pgx.Tx) error {
		type fix struct {
			id           int64
			warnings     []string
			white, black string
		}
		var fixes []fix
		err := schema.ForEachRepairGame(ctx, reader, sourceID, func(rg *schema.RepairGame) error {
			v, err := codec.VariantByID(rg.Variant)
			if err != nil {
				return err
			}
			warnings := rg.Warnings
			f := fix{id: rg.ID}
			changed := false
			if res := codec.ResultOf(rg.Result); res == replay.WhiteWins || res == replay.BlackWins {
				g, err := codec.Decode(v, rg.StartFEN, rg.Moves)
				var bad *codec.DecodeError
				if err != nil && !errors.As(err, &bad) {
					return err
				}
				if err == nil {
					if _, _, w := replay.CheckFinal(v, g.Final(), res, res.Format(v)); w != "" && !slices.Contains(warnings, w) {
						// Where a fresh import puts it: before the date's remark.
						at := slices.IndexFunc(warnings, func(s string) bool { return strings.HasPrefix(s, "date ") })
						if at < 0 {
							at = len(warnings)
						}
						f.warnings = slices.Insert(warnings, at, w)
						changed = true
						sum.Warned++
					}
				}
			}
			if rg.Unnamed && (rg.P1 != nil || rg.P2 != nil) {
				first, second := playerName(deref(rg.P1)), playerName(deref(rg.P2))
				f.white, f.black = first, second
				if v.FirstToMove == rules.Black {
					f.white, f.black = second, first
				}
				if f.white != "" || f.black != "" {
					changed = true
					sum.Named++
				}
			}
			if changed {
				fixes = append(fixes, f)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, f := range fixes {
			if f.warnings != nil {
				if err := schema.SetGameWarnings(ctx, tx, f.id, f.warnings); err != nil {
					return err
				}
			}
			if f.white != "" || f.black != "" {
				if err := schema.SetGamePlayers(ctx, tx, f.id, f.white, f.black); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
