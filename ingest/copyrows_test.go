package ingest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestCopyRowsReadBack: the games rows the importer encodes itself in
// binary COPY format (copyrows.go) store exactly the values pgx stores
// when given them one by one: every column of games, NULL or not (no
// players, no event, a start position, other tags, warnings, text that
// needed cleaning), compared row for row with a copy of the table filled
// by pgx's CopyFrom.
func TestCopyRowsReadBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	texts := []string{
		// Nothing optional: no tags at all.
		"1. 32-28 19-23 2. 28x19 14x23 *\n",
		// Everything: players, event, site, round, a start position, other
		// tags (a rating and an FMJD id), warnings (a date range, a Site
		// that is not UTF-8).
		"[Event \"Open \xc3\xa9t\xc3\xa9\"]\n[Site \"Li\xe8ge\"]\n[Date \"2004.10.27 - 2004.11.01\"]\n[Round \"3\"]\n" +
			"[White \"W\"]\n[Black \"B \\\"x\\\"\"]\n[Annotator \"\xe6\x97\xa5\"]\n[WhiteElo \"2175\"]\n[BlackFmjdId \"16011\"]\n[Opening \"\"]\n[Result \"1-0\"]\n[GameType \"20\"]\n" +
			"[FEN \"W:W31,32,33:B18,19\"]\n1. 33-28 19-23 2. 28x19 1-0\n",
		// An empty Round and Event (stored as NULL), one player.
		"[Event \"\"]\n[Round \"\"]\n[White \"only white\"]\n[GameType \"20\"]\n1. 32-28 *\n",
		// Annotations (an illegal variation kept, with a warning) and a
		// result the final position proves (Black has no piece left).
		"[GameType \"20\"]\n[FEN \"W:W33:B28\"]\n{start} 1. 33x22! $1 {wins} (1. 33-29 {no}) 2-0\n",
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	var src int64
	if err := conn.QueryRow(ctx, `INSERT INTO sources (name, sha256) VALUES ('t', 't') RETURNING id`).Scan(&src); err != nil {
		t.Fatal(err)
	}
	w := &writer{conn: conn.Conn(), players: map[string]int32{}}
	var items []Item
	var games []*replay.Game
	for i, text := range texts {
		pg, err := pdn.NewReader(strings.NewReader(text), "t.pdn").Next()
		if err != nil {
			t.Fatal(err)
		}
		g := new(replay.Game)
		if err := replay.NewReplayer(replay.Options{}).Replay(pg, nil, g); err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		games = append(games, g)
		items = append(items, Item{Ordinal: i + 1, Offset: int64(100 * i), Accepted: true, Prepared: preparer(40)(g)})
	}
	if c, err := w.writeBatch(ctx, &sourceState{id: src, openingDepth: 40}, items); err != nil || c.imported != len(texts) {
		t.Fatalf("batch: %+v, %v", c, err)
	}

	// The same values through pgx, into a table like games.
	if _, err := conn.Exec(ctx, `CREATE TEMP TABLE ref (LIKE games)`); err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for i, g := range games {
		var c cleaner
		moves := codec.AppendMoves(nil, g.Moves)
		var id int64
		var white, black *int32
		if err := conn.QueryRow(ctx, `SELECT id, white_id, black_id FROM games WHERE ordinal = $1`, i+1).Scan(&id, &white, &black); err != nil {
			t.Fatal(err)
		}
		event, site := nullable(c.text("tag Event", g.PDN.Tag("Event"))), nullable(c.text("tag Site", g.PDN.Tag("Site")))
		round := nullable(c.text("tag Round", g.PDN.Tag("Round")))
		var fen *string
		if g.StartFEN != "" {
			fen = &g.StartFEN
		}
		tagMap := otherTagMap(g, &c)
		tags, facts := encodeTags(tagMap), readPlayerFacts(tagMap)
		rating := func(r int32) *int32 {
			if r == 0 {
				return nil
			}
			return &r
		}
		annotations, varWarnings := gameAnnotations(g, &c)
		var warnings []string
		for _, w := range append(replay.WarningTexts(g.Warnings), varWarnings...) {
			warnings = append(warnings, capText(dbText(w), maxWarning))
		}
		warnings = append(warnings, c.notes...)
		rows = append(rows, []any{id, codec.VariantID(g.Variant), string(g.Basis), src, int32(i + 1), int64(100 * i),
			event, site, g.Date, round, white, black, codec.ResultCode(g.Result), int16(len(g.Moves)), fen,
			moves, int64(g.Final.Hash()), codec.MovesHash(g.Variant, g.StartFEN, moves), tags, warnings,
			codec.ResultCode(g.Proven), annotations, rating(facts.whiteRating), rating(facts.blackRating),
			nullable(facts.whiteID), nullable(facts.blackID)})
	}
	cols := []string{"id", "variant", "variant_basis", "source_id", "ordinal", "byte_offset", "event", "site", "date", "round",
		"white_id", "black_id", "result", "ply_count", "start_fen", "moves", "final_hash", "moves_hash", "tags", "warnings",
		"result_proven", "annotations", "white_rating", "black_rating", "white_fmjd_id", "black_fmjd_id"}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"ref"}, cols, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	var differ int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM (
		(SELECT * FROM games EXCEPT SELECT * FROM ref) UNION ALL (SELECT * FROM ref EXCEPT SELECT * FROM games)) d`).Scan(&differ); err != nil {
		t.Fatal(err)
	}
	if differ != 0 {
		t.Fatalf("%d rows differ between the importer's COPY and pgx's", differ)
	}
	// The columns each case is about are what the test says they are.
	var nulls, fens, tagged, warned, annotated, proven int
	if err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE event IS NULL AND round IS NULL AND black_id IS NULL),
		count(start_fen), count(tags), count(warnings), count(annotations), count(*) FILTER (WHERE result_proven = 1) FROM games`).
		Scan(&nulls, &fens, &tagged, &warned, &annotated, &proven); err != nil {
		t.Fatal(err)
	}
	if nulls != 3 || fens != 2 || tagged != 1 || warned != 2 || annotated != 1 || proven != 1 {
		t.Fatalf("cases not covered: %d rows with NULLs, %d FEN, %d tags, %d warnings, %d annotated, %d proven", nulls, fens, tagged, warned, annotated, proven)
	}
}

// TestGameRowsStream: the games COPY read in pieces of any size is the
// stream built at once (header, each game's prefix and row, trailer), and
// an empty batch is the header and the trailer alone.
func TestGameRowsStream(t *testing.T) {
	t.Parallel()
	var games []newGame
	var ids []int64
	want := rowBuf(append([]byte(nil), copyHeader...))
	for i := range 3000 {
		row := bytes.Repeat([]byte{byte(i)}, 40+i%300)
		g := newGame{it: &Item{Ordinal: i + 1, Offset: int64(100 * i)}, st: &stored{row: row}, white: int32(i % 7), black: int32(i % 5)}
		games = append(games, g)
		ids = append(ids, int64(1000+i))
		want = gameRowPrefix(want, int64(1000+i), 42, int32(i+1), int64(100*i), g.white, g.black)
		want = append(want, row...)
	}
	want = append(want, copyTrailer...)
	for _, size := range []int{1, 7, 4096, 65536, 1 << 22} {
		r := &gameRows{games: games, sourceID: 42, ids: ids}
		got, err := io.ReadAll(&sized{r, size})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("read %d bytes at a time: %d bytes, want %d (equal %v)", size, len(got), len(want), bytes.Equal(got, want))
		}
	}
	got, _ := io.ReadAll(&gameRows{sourceID: 42})
	if !bytes.Equal(got, append(append([]byte(nil), copyHeader...), copyTrailer...)) {
		t.Errorf("empty batch: %q", got)
	}
}

// sized reads at most n bytes at a time from r.
type sized struct {
	r io.Reader
	n int
}

func (s *sized) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }
