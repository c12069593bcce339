package schema

import (
	"context"
	_ "embed"

	"github.com/jackc/pgx/v5"
)

//go:embed repair.sql
var repairText string

var (
	repairSQL          = storeSQL("repair.sql", repairText)
	sqlCountMarked     = repairSQL.get("count-marked")
	sqlMarkedSources   = repairSQL.get("marked")
	sqlClearRepairMark = repairSQL.get("clear-mark")
	sqlRepairGames     = repairSQL.get("games")
	sqlSetWarnings     = repairSQL.get("set-warnings")
	sqlAddPlayers      = repairSQL.get("add-players")
	sqlSetPlayers      = repairSQL.get("set-players")
)

// CountMarkedSources counts the sources a migration marked for repair.
func CountMarkedSources(ctx context.Context, q RowQuerier) (n int, err error) {
	err = q.QueryRow(ctx, sqlCountMarked).Scan(&n)
	return n, err
}

// MarkedSource is a source marked for repair.
type MarkedSource struct {
	ID int64
	// OpeningDepth is the depth of its opening statistics; nil when it
	// has none.
	OpeningDepth *int16
	Games        int
}

// MarkedSources returns the sources marked for repair, oldest first.
func MarkedSources(ctx context.Context, q Querier) ([]MarkedSource, error) {
	rows, err := q.Query(ctx, sqlMarkedSources)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (MarkedSource, error) {
		var s MarkedSource
		return s, r.Scan(&s.ID, &s.OpeningDepth, &s.Games)
	})
}

// ClearRepairMark unmarks a repaired source.
func ClearRepairMark(ctx context.Context, q Execer, id int64) error {
	_, err := q.Exec(ctx, sqlClearRepairMark, id)
	return err
}

// RepairGame is a stored game as the repair re-checks it.
type RepairGame struct {
	StoredGame
	Result   int16
	Warnings []string
	// Unnamed: the game has neither a White nor a Black player; P1 and P2
	// are its tags of those names, nil when absent.
	Unnamed bool
	P1, P2  *string
}

// ForEachRepairGame calls fn with each game of a source, by id, on q. fn's
// error stops the scan and is returned.
func ForEachRepairGame(ctx context.Context, q Querier, sourceID int64, fn func(g *RepairGame) error) error {
	rows, err := q.Query(ctx, sqlRepairGames, sourceID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g RepairGame
		if err := rows.Scan(&g.ID, &g.Variant, &g.StartFEN, &g.Moves, &g.Result, &g.Warnings, &g.Unnamed, &g.P1, &g.P2); err != nil {
			return err
		}
		if err := fn(&g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SetGameWarnings replaces a game's warnings.
func SetGameWarnings(ctx context.Context, q Execer, id int64, warnings []string) error {
	_, err := q.Exec(ctx, sqlSetWarnings, id, warnings)
	return err
}

// SetGamePlayers gives a game its players by name, adding the names to
// players; an empty name leaves that side without a player.
func SetGamePlayers(ctx context.Context, q Execer, id int64, white, black string) error {
	if _, err := q.Exec(ctx, sqlAddPlayers, []string{white, black}); err != nil {
		return err
	}
	_, err := q.Exec(ctx, sqlSetPlayers, id, white, black)
	return err
}
