package export

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// annotatedGame has comments before the first move and after moves,
// strength marks, a NAG, a variation with a comment.
const annotatedGame = `[Event "Annotated"]
[GameType "20"]
[Result "1-1"]
{Opening comment.} 1. 32-28 {Centre first.} 19-23! 2. 28x19 14x23 (2... 13x24 {the other way} 3. 34-29) 3. 37-32? {A loose move.} 18-22!? 4. 41-37 $14 1-1
`

// storedAnnotations returns the annotations of every stored game, by
// ordinal, decoded.
func storedAnnotations(t *testing.T, pool *pgxpool.Pool) map[int32]*codec.Annotations {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT ordinal, ply_count, annotations FROM games ORDER BY ordinal`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int32]*codec.Annotations{}
	for rows.Next() {
		var ord int32
		var plies int16
		var b []byte
		if err := rows.Scan(&ord, &plies, &b); err != nil {
			t.Fatal(err)
		}
		a, err := codec.DecodeAnnotations(b, int(plies))
		if err != nil {
			t.Fatalf("game %d: %v", ord, err)
		}
		out[ord] = a
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func readGames(t *testing.T, r io.Reader, name string) []*pdn.Game {
	t.Helper()
	rd := pdn.NewReader(r, name)
	var out []*pdn.Game
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s game %d: %v", name, len(out)+1, err)
		}
		out = append(out, g)
	}
}

// TestAnnotationsRoundTrip: the annotated game survives import -> export
// --format pdn -> import with every comment, NAG, strength and variation,
// compared ply by ply with the file; the export writes the moves and
// their annotations as normalize does; the JSON lines export has them as
// a field.
func TestAnnotationsRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	in := filepath.Join(dir, "annotated.pdn")
	if err := os.WriteFile(in, []byte(annotatedGame), 0o644); err != nil {
		t.Fatal(err)
	}
	first := pgtest.NewDB(t)
	if sum, err := ingest.Import(ctx, first, []string{in}, ingest.Options{}); err != nil || sum.Imported != 1 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	out, _ := exportTo(t, first, dir, "out.pdn", Options{What: Games, Format: PDN})
	second := pgtest.NewDB(t)
	if sum, err := ingest.Import(ctx, second, []string{out}, ingest.Options{}); err != nil || sum.Imported != 1 {
		t.Fatalf("re-import: %+v, %v", sum, err)
	}
	a1, a2 := storedAnnotations(t, first)[1], storedAnnotations(t, second)[1]
	if !reflect.DeepEqual(a1, a2) {
		t.Errorf("annotations differ after the round trip:\n%+v\n%+v", a1, a2)
	}

	// Ply by ply against the file as read.
	src := readGames(t, strings.NewReader(annotatedGame), "annotated.pdn")[0]
	exported := readGames(t, open(t, out), "out.pdn")[0]
	if !reflect.DeepEqual(exported.Comments, src.Comments) {
		t.Errorf("comments before the first move %q, want %q", exported.Comments, src.Comments)
	}
	if len(exported.Moves) != len(src.Moves) {
		t.Fatalf("%d moves exported, %d read", len(exported.Moves), len(src.Moves))
	}
	for i := range src.Moves {
		s, e := &src.Moves[i], &exported.Moves[i]
		if s.Text != e.Text || s.Strength != e.Strength || !reflect.DeepEqual(s.Comments(), e.Comments()) || !reflect.DeepEqual(s.NAGs(), e.NAGs()) {
			t.Errorf("ply %d: %q%s %v %q, want %q%s %v %q", i+1, e.Text, e.Strength, e.NAGs(), e.Comments(), s.Text, s.Strength, s.NAGs(), s.Comments())
		}
		sv, ev := s.Variations(), e.Variations()
		if len(sv) != len(ev) {
			t.Fatalf("ply %d: %d variations, want %d", i+1, len(ev), len(sv))
		}
		for k := range sv {
			if len(sv[k].Moves) != len(ev[k].Moves) {
				t.Fatalf("ply %d variation %d: %d moves, want %d", i+1, k+1, len(ev[k].Moves), len(sv[k].Moves))
			}
			for j := range sv[k].Moves {
				sm, em := &sv[k].Moves[j], &ev[k].Moves[j]
				if sm.Text != em.Text || sm.Number != em.Number || sm.Black != em.Black || !reflect.DeepEqual(sm.Comments(), em.Comments()) {
					t.Errorf("ply %d variation %d move %d: %d%v %q %q, want %d%v %q %q", i+1, k+1, j+1,
						em.Number, em.Black, em.Text, em.Comments(), sm.Number, sm.Black, sm.Text, sm.Comments())
				}
			}
		}
	}
	if n := len(src.Moves[3].Variations()); n != 1 {
		t.Fatalf("the file's variation: %d", n)
	}

	// normalize writes the same moves, comments, NAGs and variations.
	srcs, errs := source.Expand([]string{in})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var norm bytes.Buffer
	if _, err := ingest.Normalize(ctx, srcs, &norm, ingest.NormalizeOptions{}); err != nil {
		t.Fatal(err)
	}
	ng := readGames(t, &norm, "normalized.pdn")[0]
	if !reflect.DeepEqual(ng.Comments, exported.Comments) || !reflect.DeepEqual(stripNumbers(ng.Moves), stripNumbers(exported.Moves)) {
		t.Errorf("normalize and export disagree:\n%+v\n%+v", ng.Moves, exported.Moves)
	}

	// JSON lines: the annotations field.
	jl, _ := exportTo(t, first, dir, "out.jsonl", Options{What: Games, Format: JSONL})
	b, err := os.ReadFile(jl)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"annotations":"{\"comments\":[\"Opening comment.\"],\"plies\":[{\"ply\":1,\"comments\":[\"Centre first.\"]},{\"ply\":2,\"strength\":\"!\"}`,
		`{\"ply\":4,\"variations\":[{\"verified\":true,\"moves\":[{\"number\":2,\"black\":true,\"move\":\"13x24\",\"comments\":[\"the other way\"]},{\"number\":3,\"move\":\"34-29\"}]}]}`,
		`{\"ply\":7,\"nags\":[14]}`, `"result_proven":"*"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("JSON lines export lacks %s:\n%s", want, b)
		}
	}
}

// stripNumbers drops what the reader keeps of how a move was numbered
// (the Raw texts differ; the moves, marks and notes must not).
func stripNumbers(ms []pdn.Move) []pdn.Move {
	out := append([]pdn.Move(nil), ms...)
	for i := range out {
		out[i].Number, out[i].Black = 0, false
	}
	return out
}

// commentChars counts the characters of every comment of g: before the
// first move, after moves, in variations (nested too), leaving out the
// evaluation comments an export writes from the evaluations table
// (ingest.IsExportedEvaluation: kept apart from the author's words).
func commentChars(g *pdn.Game) (chars, comments int) {
	add := func(cs []string) {
		for _, c := range cs {
			if !ingest.IsExportedEvaluation(c) {
				chars += utf8.RuneCountInString(c)
				comments++
			}
		}
	}
	var line func(ms []pdn.Move)
	line = func(ms []pdn.Move) {
		for i := range ms {
			add(ms[i].Comments())
			for _, v := range ms[i].Variations() {
				add(v.Comments)
				line(v.Moves)
			}
		}
	}
	add(g.Comments)
	line(g.Moves)
	return chars, comments
}

// TestSharedArchivesCommentsKept: over every shared archive, the
// characters of comment text of the stored games as read equal those of
// the same games exported as PDN and read back.
func TestSharedArchivesCommentsKept(t *testing.T) {
	if testing.Short() {
		t.Skip("imports every shared archive")
	}
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	sum, err := ingest.Import(ctx, pool, []string{shared}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]map[int32]bool{}
	rows, err := pool.Query(ctx, `SELECT s.name, g.ordinal FROM games g JOIN sources s ON s.id = g.source_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		var ord int32
		if err := rows.Scan(&name, &ord); err != nil {
			t.Fatal(err)
		}
		if stored[name] == nil {
			stored[name] = map[int32]bool{}
		}
		stored[name][ord] = true
	}
	rows.Close()
	srcs, errs := source.Expand([]string{shared})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var inChars, inComments, games int
	for _, s := range srcs {
		keep := stored[s.Name]
		if keep == nil {
			continue
		}
		r, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		rd := pdn.NewReader(r, s.Name)
		for {
			g, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err == nil && keep[int32(g.Ordinal)] {
				c, n := commentChars(g)
				inChars, inComments, games = inChars+c, inComments+n, games+1
			}
		}
		r.Close()
	}
	if games != sum.Imported || inComments < 200 {
		t.Fatalf("%d stored games read back from the archives (%d imported), %d comments", games, sum.Imported, inComments)
	}
	out, _ := exportTo(t, pool, t.TempDir(), "all.pdn", Options{What: Games, Format: PDN})
	var outChars, outComments, outGames int
	for _, g := range readGames(t, open(t, out), "all.pdn") {
		c, n := commentChars(g)
		outChars, outComments, outGames = outChars+c, outComments+n, outGames+1
	}
	if outGames != games || outChars != inChars || outComments != inComments {
		t.Errorf("comments of %d games: %d characters in %d comments read, %d in %d exported (%d games)", games, inChars, inComments, outChars, outComments, outGames)
	}
	var annotated int64
	if err := pool.QueryRow(ctx, `SELECT count(annotations) FROM games`).Scan(&annotated); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games (%d annotated): %d characters of comment text in %d comments, in and out", games, annotated, inChars, inComments)
}
