package explorer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries/players"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
)

// RecordRow is one line of a player's record: the named query player.
type RecordRow struct {
	Scope  string   `json:"scope"` // "all games", "as white", "as black", "in 1998"
	Games  int64    `json:"games"`
	Wins   int64    `json:"wins"`
	Draws  int64    `json:"draws"`
	Losses int64    `json:"losses"`
	Score  *float64 `json:"score"` // percent of the points in finished games; null when none
}

// PlayerAnswer is the answer of /api/player.
type PlayerAnswer struct {
	// Name is the player's most used spelling; Aliases the others, Why how
	// they were joined, Candidates the spellings that may be this player
	// but were left apart (see package queries/players).
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Why        []string `json:"why"`
	Candidates []string `json:"candidates"`
	// Record is the record as `draughtsdb players show` prints it, one
	// row per scope; All, White, Black, Years and Opponents are the same
	// counts under the keys of `players show --json`.
	Record    []RecordRow `json:"record"`
	All       RecordRow   `json:"all"`
	White     RecordRow   `json:"white"`
	Black     RecordRow   `json:"black"`
	Years     []RecordRow `json:"years"`     // scope is the year, oldest first
	Opponents []RecordRow `json:"opponents"` // scope is the opponent's main spelling, most games first
	First     string      `json:"first,omitempty"`
	Last      string      `json:"last,omitempty"`
	// Rating is the rating of the player's latest rated game (null for
	// none), RatingDate that game's date; Ratings the rating over time,
	// per year: `players show --json`'s keys.
	Rating     *int         `json:"rating"`
	RatingDate *string      `json:"rating_date"`
	Ratings    []RatingYear `json:"ratings"`
	// Variants are the variants the player's games are of, most games
	// first; Variant is the one the trees are of.
	Variants []VariantCount `json:"variants"`
	Variant  string         `json:"variant"`
	// WhiteTree and BlackTree are the player's opening trees as White and
	// as Black at the positions white_moves and black_moves ask for.
	WhiteTree *PlayerTree `json:"white_tree"`
	BlackTree *PlayerTree `json:"black_tree"`
	// Games is a page of the player's games, newest first; NextBefore,
	// when not 0, is the before= of the next page.
	Games      []GameRow `json:"games"`
	NextBefore int64     `json:"next_before,omitempty"`
}

// RatingYear is a player's ratings in a year: the rated games, the
// lowest, the highest and the last.
type RatingYear struct {
	Year  string `json:"year"`
	Games int    `json:"games"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
	Last  int    `json:"last"`
}

// VariantCount is a variant with a number of games.
type VariantCount struct {
	Variant string `json:"variant"`
	Games   int64  `json:"games"`
}

// maxOpponents caps the opponents /api/player lists.
const maxOpponents = 100

// player answers /api/player?name=N: the player any of whose spellings N
// is (or who has N's surname and initials; see package queries/players),
// with the record in all, by year, as White and as Black, as `draughtsdb
// players show` gives it, their opening trees as White and as Black and
// a page of their games (playerPage). A name no game has is 404, naming
// the closest.
func (s *Server) player(ctx context.Context, rq *request) (any, error) {
	name := strings.Join(strings.Fields(rq.get("name")), " ")
	if name == "" {
		return nil, badRequest("name: give a player's name (/api/players?search=... finds one)")
	}
	if len(name) > maxNameBytes {
		return nil, badRequest("name is %d bytes long; at most %d", len(name), maxNameBytes)
	}
	page, err := s.playerPageParams(rq)
	if err != nil {
		return nil, err
	}
	ans := &PlayerAnswer{Record: []RecordRow{}, Years: []RecordRow{}, Opponents: []RecordRow{}}
	err = s.read(ctx, func(tx pgx.Tx) error {
		ps, err := players.LoadNames(ctx, tx)
		if err != nil {
			return err
		}
		p, err := players.Find(ps, name)
		var ue *players.UnknownError
		if errors.As(err, &ue) {
			msg := fmt.Sprintf("no player %s", quote(name))
			if len(ue.Closest) > 0 {
				msg += "; the closest: " + strings.Join(ue.Closest, "; ")
			}
			return notFound("%s", msg)
		}
		if err != nil {
			return err
		}
		if err := players.Count(ctx, tx, p); err != nil {
			return err
		}
		d, err := players.Show(ctx, tx, p, ps)
		if err != nil {
			return err
		}
		ans.Name = p.Name()
		ans.Aliases, ans.Why, ans.Candidates = []string{}, nonNil(p.Why), nonNil(p.Candidates)
		for _, sp := range p.Spellings[1:] {
			ans.Aliases = append(ans.Aliases, sp.Name)
		}
		ans.Record = append(ans.Record, recordRow("all games", d.All))
		years := make([]string, 0, len(d.ByYear))
		for y := range d.ByYear {
			years = append(years, y)
		}
		sort.Strings(years)
		for _, y := range years {
			ans.Record = append(ans.Record, recordRow("in "+y, *d.ByYear[y]))
			ans.Years = append(ans.Years, recordRow(y, *d.ByYear[y]))
		}
		ans.Record = append(ans.Record, recordRow("as white", d.AsWhite), recordRow("as black", d.AsBlack))
		ans.All, ans.White, ans.Black = recordRow("all games", d.All), recordRow("as white", d.AsWhite), recordRow("as black", d.AsBlack)
		ans.First, ans.Last = d.First, d.Last
		if l := players.Latest(d.Ratings); l != nil {
			ans.Rating, ans.RatingDate = &l.Rating, &l.Date
		}
		ans.Ratings = []RatingYear{}
		for _, y := range players.RatingYears(d.Ratings) {
			ans.Ratings = append(ans.Ratings, RatingYear{y.Year, y.Games, y.Min, y.Max, y.Last})
		}
		for o, r := range d.Opponent {
			ans.Opponents = append(ans.Opponents, recordRow(o, *r))
		}
		sort.Slice(ans.Opponents, func(a, b int) bool {
			x, y := ans.Opponents[a], ans.Opponents[b]
			if x.Games != y.Games {
				return x.Games > y.Games
			}
			return x.Scope < y.Scope
		})
		if len(ans.Opponents) > maxOpponents {
			ans.Opponents = ans.Opponents[:maxOpponents]
		}
		return s.playerPage(ctx, tx, p.IDs(), page, ans)
	})
	if err != nil {
		return nil, err
	}
	return ans, nil
}

func recordRow(scope string, r players.Record) RecordRow {
	row := RecordRow{Scope: scope, Games: int64(r.Games), Wins: int64(r.Wins), Draws: int64(r.Draws), Losses: int64(r.Losses)}
	row.Score = r.Percent()
	return row
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// PlayerName is a completion of /api/players?prefix=.
type PlayerName struct {
	Name  string `json:"name"`
	Games int64  `json:"games"`
}

// PlayerEntry is a player of /api/players?search=: the keys of
// `draughtsdb players --json` but id.
type PlayerEntry struct {
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Games      int64    `json:"games"`
	Wins       int64    `json:"wins"`
	Draws      int64    `json:"draws"`
	Losses     int64    `json:"losses"`
	Score      *float64 `json:"score"`
	First      string   `json:"first,omitempty"`
	Last       string   `json:"last,omitempty"`
	Rating     *int     `json:"rating"`
	Why        []string `json:"why"`
	Candidates []string `json:"candidates"`
}

// players answers /api/players. With search=TEXT: the players one of
// whose spellings holds TEXT (case and diacritics folded; players.List,
// what `draughtsdb players --search` lists), every spelling of a player
// in one entry, most games first, at most limit (capped). With prefix=P
// (the page's completion before there was a search, kept for the links
// and scripts that use it): the spellings that start with P, by name.
func (s *Server) players(ctx context.Context, rq *request) (any, error) {
	limit, err := rq.intParam("limit", defaultPlayersLimit, 1, maxPlayersLimit)
	if err != nil {
		return nil, err
	}
	if _, ok := rq.q["search"]; ok {
		if _, both := rq.q["prefix"]; both {
			return nil, badRequest("give search or prefix, not both (search finds any part of any spelling)")
		}
		return s.searchPlayers(ctx, rq, limit)
	}
	prefix := strings.TrimLeft(rq.get("prefix"), " ")
	if len(prefix) > maxNameBytes {
		return nil, badRequest("prefix is %d bytes long; at most %d", len(prefix), maxNameBytes)
	}
	out := []PlayerName{}
	err = s.read(ctx, func(tx pgx.Tx) error {
		names, err := schema.PlayersByPrefix(ctx, tx, prefix, limit)
		for _, n := range names {
			out = append(out, PlayerName{Name: n.Name, Games: n.Games})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"prefix": prefix, "players": out}, nil
}

// searchPlayers is /api/players?search=: players.List, cut to limit. An
// empty search lists every player, most games first.
func (s *Server) searchPlayers(ctx context.Context, rq *request, limit int) (any, error) {
	search := strings.Join(strings.Fields(rq.get("search")), " ")
	if len(search) > maxNameBytes {
		return nil, badRequest("search is %d bytes long; at most %d", len(search), maxNameBytes)
	}
	out := []PlayerEntry{}
	total := 0
	err := s.read(ctx, func(tx pgx.Tx) error {
		list, err := players.List(ctx, tx, search)
		if err != nil {
			return err
		}
		// Most games first, then by name: the list of `players`.
		sort.SliceStable(list, func(a, b int) bool {
			if list[a].Games != list[b].Games {
				return list[a].Games > list[b].Games
			}
			return list[a].Name() < list[b].Name()
		})
		total = len(list)
		for _, e := range list[:min(limit, len(list))] {
			aliases := []string{}
			for _, sp := range e.Spellings[1:] {
				aliases = append(aliases, sp.Name)
			}
			out = append(out, PlayerEntry{Name: e.Name(), Aliases: aliases, Games: int64(e.Games), Wins: int64(e.Wins),
				Draws: int64(e.Draws), Losses: int64(e.Losses), Score: e.Percent(), First: e.First, Last: e.Last, Rating: e.Rating,
				Why: nonNil(e.Why), Candidates: nonNil(e.Candidates)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"search": search, "players": out, "total": total}, nil
}
