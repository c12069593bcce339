package schema

import (
	"context"
	_ "embed"
	"errors"

	"github.com/jackc/pgx/v5"
)

//go:embed explorer.sql
var explorerText string

var (
	explorerSQL            = storeSQL("explorer.sql", explorerText)
	sqlFilteredGamesAt     = explorerSQL.get("filtered-games-at")
	sqlFilteredPlayerGames = explorerSQL.get("filtered-player-games")
	sqlFilteredGamesWindow = explorerSQL.get("filtered-games-window")
	sqlGameIDRange         = explorerSQL.get("id-range")
	sqlExplorerGame        = explorerSQL.get("game")
	sqlMoveClasses         = explorerSQL.get("move-classes")
	sqlPositionNotes       = explorerSQL.get("position-notes")
	sqlPlayerVariants      = explorerSQL.get("player-variants")
	sqlPlayerTreeGames     = explorerSQL.get("player-tree-games")
	sqlPlayerGamesPage     = explorerSQL.get("player-games-page")
)

// ExplorerFilter is what the explorer's filtered selections keep of the
// games: each field "" (or 0) turns its condition off. Color is "white",
// "black" or anything else for either side; Event is a substring, case
// folded; From and To are dates compared at the precision given, games
// without a known year left out; MinRating is the least rating both
// players must have.
type ExplorerFilter struct {
	Player, Color, Event, From, To string
	MinRating                      int
}

// ListedGame is what a list of games shows of a game; Result is codec's
// result code. A name the game lacks is "".
type ListedGame struct {
	ID                        int64
	Variant                   int16
	White, Black, Event, Date string
	Result                    int16
	Plies                     int
}

// FilteredGame is a game a filtered selection found, with its stored
// moves (codec's compact form, nil when not asked for) and start ("" for
// the variant's start position).
type FilteredGame struct {
	ListedGame
	StartFEN string
	Moves    []byte
}

// ForEachFilteredGameAt calls fn with the games of variant with an id
// below below that reach the position hash (the position index: its 44
// bits, so a caller that must be sure decodes) and pass f, newest first,
// at most limit, until fn returns false; with moves, each with its
// stored moves. Rows are handed on one at a time, so memory stays
// bounded whatever the number of games.
func ForEachFilteredGameAt(ctx context.Context, q Querier, hash int64, variant int16, f ExplorerFilter, below int64, limit int, moves bool,
	fn func(*FilteredGame) (bool, error)) error {
	rows, err := q.Query(ctx, sqlFilteredGamesAt, hash, variant, f.Player, f.Color, f.Event, f.From, f.To,
		limit, below, moves, f.MinRating)
	if err != nil {
		return err
	}
	return eachFilteredGame(rows, variant, fn)
}

// ForEachFilteredPlayerGame is ForEachFilteredGameAt for the games of
// f.Player (with f.Color's side) of any position, through the indexes on
// white_id and black_id, always with their moves: the caller decodes
// them to find the position.
func ForEachFilteredPlayerGame(ctx context.Context, q Querier, variant int16, f ExplorerFilter, below int64, limit int,
	fn func(*FilteredGame) (bool, error)) error {
	rows, err := q.Query(ctx, sqlFilteredPlayerGames, int64(0), variant, f.Player, f.Color, f.Event, f.From, f.To,
		limit, below, true, f.MinRating)
	if err != nil {
		return err
	}
	return eachFilteredGame(rows, variant, fn)
}

// ForEachFilteredGameIn calls fn with the games of variant with ids in
// [from, to) that pass f, of any position, newest first, with their
// moves, until fn returns false: one window of a scan of the newest
// games, which the caller decodes.
func ForEachFilteredGameIn(ctx context.Context, q Querier, variant int16, f ExplorerFilter, from, to int64,
	fn func(*FilteredGame) (bool, error)) error {
	rows, err := q.Query(ctx, sqlFilteredGamesWindow, int64(0), variant, f.Player, f.Color, f.Event, f.From, f.To,
		from, to, f.MinRating)
	if err != nil {
		return err
	}
	return eachFilteredGame(rows, variant, fn)
}

// eachFilteredGame reads the rows of the filtered selections one at a
// time, until fn returns false.
func eachFilteredGame(rows pgx.Rows, variant int16, fn func(*FilteredGame) (bool, error)) error {
	defer rows.Close()
	for rows.Next() {
		var g FilteredGame
		var startFEN, white, black, event *string
		var plies int16
		if err := rows.Scan(&g.ID, &startFEN, &g.Moves, &g.Result, &white, &black, &event, &g.Date, &plies); err != nil {
			return err
		}
		g.Variant, g.Plies = variant, int(plies)
		g.StartFEN, g.White, g.Black, g.Event = nullText(startFEN), nullText(white), nullText(black), nullText(event)
		more, err := fn(&g)
		if err != nil || !more {
			return err
		}
	}
	return rows.Err()
}

// nullText is a nullable text column's value, "" for NULL.
func nullText(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// GameIDRange returns the lowest and highest game id of any variant; ok
// is false when there are no games.
func GameIDRange(ctx context.Context, q Querier) (lo, hi int64, ok bool, err error) {
	var l, h *int64
	if err := q.QueryRow(ctx, sqlGameIDRange).Scan(&l, &h); err != nil {
		return 0, 0, false, err
	}
	if l == nil || h == nil {
		return 0, 0, false, nil
	}
	return *l, *h, true, nil
}

// ViewedGame is a stored game as the explorer's viewer shows it. The
// pointers are the nullable columns, nil for NULL.
type ViewedGame struct {
	ID                 int64
	Variant            int16
	Event, Site, Round *string
	Date               string
	White, Black       *string
	Result             int16
	ResultProven       *int16 // nil for a game imported before it was kept
	Plies              int16
	StartFEN           *string // nil for the variant's start position
	Moves              []byte  // codec's compact moves
	Tags               *string // the tags as JSON text
	Warnings           []string
	Source             string // the source's name
	Ordinal            int32
	Annotations        []byte // codec's annotations
}

// ViewGame returns the game id; ok is false when there is none.
func ViewGame(ctx context.Context, q Querier, id int64) (g ViewedGame, ok bool, err error) {
	g.ID = id
	err = q.QueryRow(ctx, sqlExplorerGame, id).Scan(&g.Variant, &g.Event, &g.Site, &g.Date, &g.Round, &g.White, &g.Black,
		&g.Result, &g.Plies, &g.StartFEN, &g.Moves, &g.Tags, &g.Warnings, &g.Source, &g.Ordinal, &g.ResultProven, &g.Annotations)
	if errors.Is(err, pgx.ErrNoRows) {
		return ViewedGame{}, false, nil
	}
	if err != nil {
		return ViewedGame{}, false, err
	}
	return g, true, nil
}

// MoveClass is an engine's class of one move of a game (a row of
// move_annotations): the loss in hundredths of a man and the class (ok,
// inaccuracy, mistake, blunder).
type MoveClass struct {
	Ply             int
	Engine, Setting string
	Loss            int
	Class           string
}

// GameMoveClasses returns the engines' classes of the moves of the game
// id, by ply, then engine and setting.
func GameMoveClasses(ctx context.Context, q Querier, id int64) ([]MoveClass, error) {
	rows, err := q.Query(ctx, sqlMoveClasses, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []MoveClass
	for rows.Next() {
		var ply int32
		var c MoveClass
		if err := rows.Scan(&ply, &c.Engine, &c.Setting, &c.Loss, &c.Class); err != nil {
			return nil, err
		}
		c.Ply = int(ply)
		out = append(out, c)
	}
	return out, rows.Err()
}

// PositionNote is what the store knows of a position besides its games:
// its ballot name (nil for none) and the mean of its evaluations in
// hundredths of a man from the side to move's view (nil for none), of
// Evals evaluations.
type PositionNote struct {
	Hash  int64
	Name  *string
	Eval  *float64
	Evals int
}

// PositionNotes returns the notes of the positions of variant by hash,
// one per hash given.
func PositionNotes(ctx context.Context, q Querier, variant int16, hashes []int64) ([]PositionNote, error) {
	rows, err := q.Query(ctx, sqlPositionNotes, variant, hashes)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]PositionNote, 0, len(hashes))
	for rows.Next() {
		var n PositionNote
		if err := rows.Scan(&n.Hash, &n.Name, &n.Eval, &n.Evals); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// VariantGames is a variant (codec's id) with a number of games.
type VariantGames struct {
	Variant int16
	Games   int64
}

// PlayerVariants returns the variants of the games of the player whose
// spellings are ids, most games first, then by variant.
func PlayerVariants(ctx context.Context, q Querier, ids []int32) ([]VariantGames, error) {
	rows, err := q.Query(ctx, sqlPlayerVariants, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (VariantGames, error) {
		var v VariantGames
		err := r.Scan(&v.Variant, &v.Games)
		return v, err
	})
}

// TreeGame is a game a player's opening tree counts: its start ("" for
// the variant's), its stored moves and its result code.
type TreeGame struct {
	ID       int64
	StartFEN string
	Moves    []byte
	Result   int16
}

// ForEachPlayerTreeGame calls fn with the games of variant that the
// player whose spellings are ids played as White (white) or Black,
// newest first, at most limit, until fn returns false.
func ForEachPlayerTreeGame(ctx context.Context, q Querier, ids []int32, variant int16, white bool, limit int,
	fn func(*TreeGame) (bool, error)) error {
	color := "black"
	if white {
		color = "white"
	}
	rows, err := q.Query(ctx, sqlPlayerTreeGames, ids, variant, color, limit)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g TreeGame
		if err := rows.Scan(&g.ID, &g.StartFEN, &g.Moves, &g.Result); err != nil {
			return err
		}
		more, err := fn(&g)
		if err != nil || !more {
			return err
		}
	}
	return rows.Err()
}

// PlayerGamesPage returns the games of every variant of the player whose
// spellings are ids with an id below below, newest first, at most limit.
func PlayerGamesPage(ctx context.Context, q Querier, ids []int32, below int64, limit int) ([]ListedGame, error) {
	rows, err := q.Query(ctx, sqlPlayerGamesPage, ids, below, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ListedGame
	for rows.Next() {
		var g ListedGame
		var white, black, event *string
		var plies int16
		if err := rows.Scan(&g.ID, &g.Variant, &white, &black, &event, &g.Date, &g.Result, &plies); err != nil {
			return nil, err
		}
		g.White, g.Black, g.Event, g.Plies = nullText(white), nullText(black), nullText(event), int(plies)
		out = append(out, g)
	}
	return out, rows.Err()
}
