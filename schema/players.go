package schema

import (
	"context"
	_ "embed"

	"github.com/jackc/pgx/v5"
)

//go:embed players.sql
var playersText string

var (
	playersSQL             = storeSQL("players.sql", playersText)
	sqlPlayerSpellings     = playersSQL.get("spellings")
	sqlPlayerNames         = playersSQL.get("names")
	sqlPlayerCounts        = playersSQL.get("counts")
	sqlPlayerLinks         = playersSQL.get("links")
	sqlPlayerPairings      = playersSQL.get("pairings")
	sqlPlayerGamesOf       = playersSQL.get("games-of")
	sqlPlayerLatestRatings = playersSQL.get("latest-ratings")
	sqlSetPlayerLink       = playersSQL.get("set-link")
	sqlRemovePlayerLink    = playersSQL.get("remove-link")
	sqlPlayerPrefix        = playersSQL.get("prefix")
)

// PlayerSpelling is one row of players: a name as the games write it,
// with its games when they were counted.
type PlayerSpelling struct {
	ID    int32
	Name  string
	Games int
}

// PlayerSpellings returns every row of players; with games, each with
// its games (a game against oneself once), otherwise with 0, which reads
// the players table alone.
func PlayerSpellings(ctx context.Context, q Querier, games bool) ([]PlayerSpelling, error) {
	stmt := sqlPlayerNames
	if games {
		stmt = sqlPlayerSpellings
	}
	rows, err := q.Query(ctx, stmt)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (PlayerSpelling, error) {
		var s PlayerSpelling
		err := r.Scan(&s.ID, &s.Name, &s.Games)
		return s, err
	})
}

// PlayerGameCounts returns the games of each of the spellings ids, each
// game once; an id without a row of players is left out.
func PlayerGameCounts(ctx context.Context, q Querier, ids []int32) (map[int32]int, error) {
	rows, err := q.Query(ctx, sqlPlayerCounts, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := map[int32]int{}
	for rows.Next() {
		var id int32
		var c int
		if err := rows.Scan(&id, &c); err != nil {
			return nil, err
		}
		n[id] = c
	}
	return n, rows.Err()
}

// PlayerLink is a row of player_links: Target "" splits Name from every
// other spelling; otherwise Name is Target's player.
type PlayerLink struct {
	Name   string
	Target string
}

// PlayerLinks returns the user's aliases and splits.
func PlayerLinks(ctx context.Context, q Querier) ([]PlayerLink, error) {
	rows, err := q.Query(ctx, sqlPlayerLinks)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (PlayerLink, error) {
		var l PlayerLink
		err := r.Scan(&l.Name, &l.Target)
		return l, err
	})
}

// SetPlayerLink records that name is target's player, or, target "",
// a player of its own; it replaces what was decided about name before.
func SetPlayerLink(ctx context.Context, e Execer, name, target string) error {
	_, err := e.Exec(ctx, sqlSetPlayerLink, name, target)
	return err
}

// RemovePlayerLink forgets what was decided about name.
func RemovePlayerLink(ctx context.Context, e Execer, name string) error {
	_, err := e.Exec(ctx, sqlRemovePlayerLink, name)
	return err
}

// PlayerPairing is the games of one pairing (players ids, nil for no
// name) with one result (codec's result codes), with the first and last
// year among them that is known (nil: none is).
type PlayerPairing struct {
	White, Black *int32
	Result       int16
	Games        int
	First, Last  *string
}

// ForEachPlayerPairing calls fn with the games grouped by pairing and
// result: enough for any group of spellings' record without reading a
// row per game. fn's error stops the scan and is returned.
func ForEachPlayerPairing(ctx context.Context, q Querier, fn func(*PlayerPairing) error) error {
	rows, err := q.Query(ctx, sqlPlayerPairings)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p PlayerPairing
		if err := rows.Scan(&p.White, &p.Black, &p.Result, &p.Games, &p.First, &p.Last); err != nil {
			return err
		}
		if err := fn(&p); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PlayerGame is a game of a player, from the player's side: what a
// record needs of it.
type PlayerGame struct {
	ID               int64
	AsWhite, AsBlack bool // both in a game against themself
	Result           int16
	Year             string  // the date's first four characters, as stored
	Opponent         *string // the other side's spelling, nil for none
	Opening          string  // the first two plies, as draughtsdb_moves_text writes them
	Variant          string
	Date             string
	Rating           *int32 // the player's rating in the game, nil for none
}

// ForEachPlayerGame calls fn with each game of the player whose
// spellings are ids, by date and then id. fn's error stops the scan and
// is returned.
func ForEachPlayerGame(ctx context.Context, q Querier, ids []int32, fn func(*PlayerGame) error) error {
	rows, err := q.Query(ctx, sqlPlayerGamesOf, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g PlayerGame
		if err := rows.Scan(&g.ID, &g.AsWhite, &g.AsBlack, &g.Result, &g.Year, &g.Opponent, &g.Opening, &g.Variant, &g.Date, &g.Rating); err != nil {
			return err
		}
		if err := fn(&g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PlayerRating is a spelling's latest rated game: the rating there, the
// game's date and id.
type PlayerRating struct {
	Player int32
	Rating int
	Date   string
	Game   int64
}

// ForEachLatestPlayerRating calls fn with each spelling's latest rated
// game (by date, a known year first, then id; see players.sql). fn's
// error stops the scan and is returned.
func ForEachLatestPlayerRating(ctx context.Context, q Querier, fn func(*PlayerRating) error) error {
	rows, err := q.Query(ctx, sqlPlayerLatestRatings)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r PlayerRating
		if err := rows.Scan(&r.Player, &r.Rating, &r.Date, &r.Game); err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PlayerPrefixName is a spelling that starts with a prefix, with its
// games.
type PlayerPrefixName struct {
	Name  string
	Games int64
}

// PlayersByPrefix returns the spellings that start with prefix (case
// folded), by name, at most limit, each with its games (a game against
// oneself once).
func PlayersByPrefix(ctx context.Context, q Querier, prefix string, limit int) ([]PlayerPrefixName, error) {
	rows, err := q.Query(ctx, sqlPlayerPrefix, prefix, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []PlayerPrefixName{}
	for rows.Next() {
		var p PlayerPrefixName
		if err := rows.Scan(&p.Name, &p.Games); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
