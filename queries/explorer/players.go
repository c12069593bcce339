package explorer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries/players"
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
	Name       string      `json:"name"`
	Aliases    []string    `json:"aliases"`
	Why        []string    `json:"why"`
	Candidates []string    `json:"candidates"`
	Record     []RecordRow `json:"record"`
}

// player answers /api/player?name=N: the player any of whose spellings N
// is (or who has N's surname and initials; see package queries/players),
// with the record in all, by year, as White and as Black, as `draughtsdb
// players show` gives it. A name no game has is 404, naming the closest.
func (s *Server) player(ctx context.Context, rq *request) (any, error) {
	name := strings.Join(strings.Fields(rq.get("name")), " ")
	if name == "" {
		return nil, badRequest("name: give a player's name (/api/players?prefix=... completes one)")
	}
	if len(name) > maxNameBytes {
		return nil, badRequest("name is %d bytes long; at most %d", len(name), maxNameBytes)
	}
	ans := &PlayerAnswer{Record: []RecordRow{}}
	err := s.read(ctx, func(tx pgx.Tx) error {
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
		}
		ans.Record = append(ans.Record, recordRow("as white", d.AsWhite), recordRow("as black", d.AsBlack))
		return nil
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

// PlayerName is a completion of /api/players.
type PlayerName struct {
	Name  string `json:"name"`
	Games int64  `json:"games"`
}

// players answers /api/players?prefix=P: the players whose name starts
// with P (case-insensitive), by name, at most limit (capped).
func (s *Server) players(ctx context.Context, rq *request) (any, error) {
	prefix := strings.TrimLeft(rq.get("prefix"), " ")
	if len(prefix) > maxNameBytes {
		return nil, badRequest("prefix is %d bytes long; at most %d", len(prefix), maxNameBytes)
	}
	limit, err := rq.intParam("limit", defaultPlayersLimit, 1, maxPlayersLimit)
	if err != nil {
		return nil, err
	}
	out := []PlayerName{}
	err = s.read(ctx, func(tx pgx.Tx) error {
		// A game the player played against themself (the same name as
		// White and Black) is one game: the black half leaves it out.
		rows, err := tx.Query(ctx, `SELECT p.name,
				(SELECT count(*) FROM games g WHERE g.white_id = p.id)
				+ (SELECT count(*) FROM games g WHERE g.black_id = p.id AND g.white_id IS DISTINCT FROM p.id)
			FROM (SELECT id, name FROM players WHERE starts_with(lower(name), lower($1::text)) ORDER BY name LIMIT $2::int) p
			ORDER BY p.name`, prefix, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p PlayerName
			if err := rows.Scan(&p.Name, &p.Games); err != nil {
				return err
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"prefix": prefix, "players": out}, nil
}
