package export

import (
	"fmt"
	"slices"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
)

// The kinds of rows to export: the values of Options.What.
const (
	Games       = "games"
	Positions   = "positions"
	Evaluations = "evaluations"
	Openings    = "openings"
	Rejected    = "rejected"
)

// The output formats: the values of Options.Format.
const (
	CSV     = "csv"
	JSONL   = "jsonl"
	Parquet = "parquet"
	PDN     = "pdn"
)

// Whats and Formats list the accepted values, in the order of the manual.
var (
	Whats   = []string{Games, Positions, Evaluations, Openings, Rejected}
	Formats = []string{CSV, JSONL, Parquet, PDN}
)

// Options say what to export and how. The zero value of every field but
// What and Format is a sensible default.
type Options struct {
	What   string // Games, Positions, Evaluations, Openings or Rejected
	Format string // CSV, JSONL, Parquet or PDN

	Filter Filter

	// Distinct: positions once per distinct (variant, position) with
	// aggregated results, instead of once per (game, ply).
	Distinct bool

	// Engine and Setting, when set, restrict the evaluations used (and
	// exported) to that engine and/or setting.
	Engine, Setting string

	// MinGames and MaxPly bound --what openings: the walk follows (and
	// exports) moves played at least MinGames times (<= 1: every move), to
	// MaxPly plies from the initial position (<= 0: as deep as the
	// statistics go).
	MinGames int64
	MaxPly   int

	// Workers replay games in parallel (positions, PDN with evaluations);
	// <= 0: the number of CPUs.
	Workers int

	// RowGroupRows is the Parquet row group size in rows; <= 0: 1,048,576.
	RowGroupRows int64

	// Total, when set, receives the number of rows the export will write
	// (games for PDN; -1 when not known in advance) before the first row;
	// it costs a count query. Progress, when set, is called now and then
	// with the rows written so far.
	Total    func(rows int64)
	Progress func(rows int64)
}

// Filter selects games (for games and positions; evaluations take only
// Variant). Every field is optional; the conditions are ANDed.
type Filter struct {
	Variant *rules.Variant
	// Events and Players are case-insensitive SQL LIKE patterns (% any
	// run, _ one character); a game matches when any pattern matches its
	// Event (resp. its White or Black player).
	Events  []string
	Players []string
	// From and To bound the game's date, inclusive, at the precision given:
	// YYYY, YYYY.MM or YYYY.MM.DD (- or / may separate). Games with an
	// unknown year are left out when either is set; unknown months and
	// days (??) sort after every known one.
	From, To string
	// MinPly keeps games of at least this many plies.
	MinPly int
	// MinRating keeps games in which both players are rated at least this
	// (games.white_rating and black_rating: the WhiteRating or WhiteElo
	// tags); a game with an unrated player is left out. 0: no bound.
	MinRating int
	// Sources selects the games' sources as draughtsdb_source_ids reads a
	// selection (archive, match, all, source ids and names,
	// comma-separated); "" is archive: imported files, not engine matches.
	Sources string
	// Positions, when set, keeps the games that reach one of these
	// positions (a game of the position's variant whose position index
	// holds its hash), by any move order.
	Positions []At
}

// At is a position of a variant, for Filter.Positions.
type At struct {
	Variant *rules.Variant
	Hash    uint64
}

func (f *Filter) empty() bool {
	return f.Variant == nil && len(f.Events) == 0 && len(f.Players) == 0 && f.From == "" && f.To == "" && f.MinPly == 0 && f.MinRating == 0 &&
		(f.Sources == "" || f.Sources == schema.DefaultSources) && len(f.Positions) == 0
}

// onlyVariant reports whether no filter other than Variant is set.
func (f *Filter) onlyVariant() bool {
	g := *f
	g.Variant = nil
	return g.empty()
}

// normDate checks a --from/--to date and writes it as games.date does.
func normDate(flag, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	d, err := queries.DateBound(s)
	if err != nil {
		return "", fmt.Errorf("--%s %q: %w", flag, s, err)
	}
	return d, nil
}

// check validates o and fills defaults.
func (o *Options) check() error {
	if !slices.Contains(Whats, o.What) {
		return fmt.Errorf("--what must be one of %s, not %q", strings.Join(Whats, ", "), o.What)
	}
	if !slices.Contains(Formats, o.Format) {
		return fmt.Errorf("--format must be one of %s, not %q", strings.Join(Formats, ", "), o.Format)
	}
	if o.Format == PDN && o.What != Games && o.What != Rejected {
		return fmt.Errorf("--format pdn is for --what games and --what rejected, not %s", o.What)
	}
	if (o.MinGames != 0 || o.MaxPly != 0) && o.What != Openings {
		return fmt.Errorf("--min-games and --max-ply are for --what openings")
	}
	if o.Distinct && o.What != Positions {
		return fmt.Errorf("--distinct is for --what positions")
	}
	if o.Filter.MinPly < 0 {
		return fmt.Errorf("--min-ply must not be negative")
	}
	if o.Filter.MinRating < 0 {
		return fmt.Errorf("--min-rating must not be negative")
	}
	var err error
	if o.Filter.From, err = normDate("from", o.Filter.From); err != nil {
		return err
	}
	if o.Filter.To, err = normDate("to", o.Filter.To); err != nil {
		return err
	}
	switch o.What {
	case Evaluations:
		if !o.Filter.onlyVariant() {
			return fmt.Errorf("--what evaluations takes --variant, --engine and --setting; the game filters (--event, --player, --from, --to, --min-ply, --min-rating, --source, --fen, --moves) select games")
		}
	case Openings:
		g := o.Filter
		g.Sources = ""
		if !g.onlyVariant() || o.Engine != "" || o.Setting != "" {
			return fmt.Errorf("--what openings takes --variant, --source, --min-games and --max-ply: the statistics count every game of the sources (the archive sources by default; game filters and engines do not apply)")
		}
	case Rejected:
		if !o.Filter.empty() || o.Engine != "" || o.Setting != "" {
			return fmt.Errorf("--what rejected takes no filter: rejected games have no verified variant, players or date")
		}
	}
	return nil
}
