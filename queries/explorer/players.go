package explorer

import (
	"context"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries"
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
	Name   string      `json:"name"`
	Record []RecordRow `json:"record"`
}

// player answers /api/player?name=N with the named query player (what
// `draughtsdb query player` runs); a name no game has is 404.
func (s *Server) player(ctx context.Context, rq *request) (any, error) {
	name := strings.Join(strings.Fields(rq.get("name")), " ")
	if name == "" {
		return nil, badRequest("name: give a player's name (/api/players?prefix=... completes one)")
	}
	if len(name) > maxNameBytes {
		return nil, badRequest("name is %d bytes long; at most %d", len(name), maxNameBytes)
	}
	ans := &PlayerAnswer{Name: name, Record: []RecordRow{}}
	err := s.read(ctx, func(tx pgx.Tx) error {
		var known bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM players WHERE name = $1)`, name).Scan(&known); err != nil {
			return err
		}
		if !known {
			return notFound("no player %s (names are exact, as in the games; /api/players?prefix=... completes one)", quote(name))
		}
		q, err := queries.Lookup("player")
		if err != nil {
			return err
		}
		res, err := queries.RunTx(ctx, tx, q, map[string]string{"player": name})
		if err != nil {
			return err
		}
		idx := map[string]int{}
		for i, c := range res.Columns {
			idx[c] = i
		}
		num := func(r []string, c string) int64 {
			n, _ := strconv.ParseInt(r[idx[c]], 10, 64)
			return n
		}
		for i, r := range res.Rows {
			row := RecordRow{Scope: r[idx["scope"]], Games: num(r, "games"), Wins: num(r, "wins"),
				Draws: num(r, "draws"), Losses: num(r, "losses")}
			if k, ok := idx["score"]; ok && !res.Null[i][k] {
				if f, err := strconv.ParseFloat(r[k], 64); err == nil {
					row.Score = &f
				}
			}
			ans.Record = append(ans.Record, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ans, nil
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
