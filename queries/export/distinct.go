package export

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// distinctSource: one row per distinct (variant, position) reached by the
// selected games, with the results of the games that reached it. The
// positions are computed in Go as for positionsSource and loaded into a
// temporary table (COPY, in the session's auxiliary transaction), which
// PostgreSQL aggregates (spilling to disk as needed), so the export's own
// memory stays constant; the temporary table costs disk space in
// proportion to the positions (about 100 bytes each) until the export
// ends. A game counts once per position even when it repeats it.
type distinctSource struct{ o *Options }

var distinctColumns = append([]Column{
	{Name: "variant", Kind: String, Dict: true, Doc: "variant name"},
	{Name: "fen", Kind: String, Doc: "the position's FEN"},
	{Name: "zobrist", Kind: String, Doc: "Zobrist hash, 16 hex digits"},
	{Name: "side_to_move", Kind: String, Dict: true, Doc: "white or black"},
	{Name: "games", Kind: Int, Doc: "selected games that reached the position"},
	{Name: "wins", Kind: Int, Doc: "of them, won by the side to move"},
	{Name: "draws", Kind: Int, Doc: "drawn"},
	{Name: "losses", Kind: Int, Doc: "lost by the side to move (0-0 counts as a loss)"},
	{Name: "unknown", Kind: Int, Doc: "with an unknown result (*)"},
	{Name: "score", Kind: Float, Nullable: true, Doc: "(wins + draws/2) / (wins + draws + losses); null when no game has a known result"},
	{Name: "min_ply", Kind: Int, Doc: "the earliest ply at which a game reached it"},
}, evalColumns...)

func (distinctSource) columns() []Column { return distinctColumns }

func (distinctSource) count(context.Context, *session) (int64, error) { return -1, nil }

func (d distinctSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	aux, err := s.auxTx(ctx)
	if err != nil {
		return err
	}
	if _, err := aux.Exec(ctx, `CREATE TEMP TABLE export_positions (
		variant smallint, hash bigint, fen text, result smallint, ply smallint)`); err != nil {
		return err
	}
	cols := []string{"variant", "hash", "fen", "result", "ply"}
	type entry struct {
		g   *gameRec
		ply int
	}
	var batch []entry
	inGame := map[uint64]bool{}
	prepare := func(g *gameRec) { replayGame(g, true) }
	err = streamGames(ctx, s, &d.o.Filter, d.o.Workers, prepare, nil, func(games []gameRec, _ any) error {
		batch = batch[:0]
		for i := range games {
			g := &games[i]
			if g.err != nil {
				return undecodable(g)
			}
			clear(inGame)
			for ply, h := range g.hashes {
				if !inGame[h] {
					inGame[h] = true
					batch = append(batch, entry{g, ply})
				}
			}
		}
		_, err := aux.CopyFrom(ctx, pgx.Identifier{"export_positions"}, cols, pgx.CopyFromSlice(len(batch), func(i int) ([]any, error) {
			e := batch[i]
			var res *int16
			if v := sideResult(e.g.result, e.g.sides[e.ply]); !v.Null {
				r := int16(v.F * 2)
				res = &r
			}
			return []any{e.g.variantID, int64(e.g.hashes[e.ply]), e.g.fens[e.ply], res, int16(e.ply)}, nil
		}))
		return err
	})
	if err != nil {
		return err
	}
	rows, err := aux.Query(ctx, `
		SELECT p.variant, p.hash, p.fen, p.games, p.wins, p.draws, p.losses, p.unknown, p.min_ply,
		       e.score, e.mate, e.depth, e.best_move, e.engine, e.setting
		FROM (SELECT variant, hash, min(fen COLLATE "C") AS fen, count(*) AS games,
		             count(*) FILTER (WHERE result = 2) AS wins, count(*) FILTER (WHERE result = 1) AS draws,
		             count(*) FILTER (WHERE result = 0) AS losses, count(*) FILTER (WHERE result IS NULL) AS unknown,
		             min(ply) AS min_ply
		      FROM export_positions GROUP BY variant, hash) p
		LEFT JOIN LATERAL (
		      SELECT score, mate, depth, best_move, engine, setting FROM evaluations e
		      WHERE e.variant = p.variant AND e.hash = p.hash
		        AND ($1::text IS NULL OR e.engine = $1) AND ($2::text IS NULL OR e.setting = $2)
		      ORDER BY `+pickSQL+` LIMIT 1) e ON true
		ORDER BY p.games DESC, p.variant, p.hash`, s.engine, s.setting)
	if err != nil {
		return fmt.Errorf("distinct positions: %w", err)
	}
	defer rows.Close()
	row := make([]Value, len(distinctColumns))
	for rows.Next() {
		var (
			variant                             int16
			hash                                int64
			fen                                 string
			games, wins, draws, losses, unknown int64
			minPly                              int16
			score, depth                        *int64
			mate                                *bool
			best, engine, setting               *string
		)
		if err := rows.Scan(&variant, &hash, &fen, &games, &wins, &draws, &losses, &unknown, &minPly,
			&score, &mate, &depth, &best, &engine, &setting); err != nil {
			return err
		}
		row[0] = str(variantName(variant))
		row[1] = str(fen)
		row[2] = str(hex64(uint64(hash)))
		side := "white"
		if len(fen) > 0 && fen[0] == 'B' {
			side = "black"
		}
		row[3] = str(side)
		row[4], row[5], row[6], row[7], row[8] = num(games), num(wins), num(draws), num(losses), num(unknown)
		if decided := wins + draws + losses; decided > 0 {
			row[9] = flt((float64(wins) + float64(draws)/2) / float64(decided))
		} else {
			row[9] = null()
		}
		row[10] = num(int64(minPly))
		if score != nil {
			setEval(row[11:], picked{score: *score, mate: *mate, depth: *depth, best: best, engine: *engine, setting: *setting}, true)
		} else {
			setEval(row[11:], picked{}, false)
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return rows.Err()
}
