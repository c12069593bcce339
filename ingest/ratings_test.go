package ingest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ratingFiles are the shared archives with rating tags: lidraughts'
// exports (WhiteElo on every game) and kurnik's and the Czech
// championship's, whose unrated players are "0000".
var ratingFiles = []string{
	"online/antidraughts.pdn.gz", "online/brazilian.pdn.gz", "online/breakthrough.pdn.gz",
	"online/frisian.pdn.gz", "online/frysk.pdn.gz", "online/russian.pdn.gz",
	"testsuite/succeed/kurnik.pdn.gz", "testsuite/succeed/mrcd2000kval.pdn.gz",
}

var ratingTestTag = regexp.MustCompile(`^\[([A-Za-z0-9_]+)\s+"(.*)"\]\s*$`)

// fileTags reads the tags of every game of a PDN text by lines, without
// the project's reader: a game starts at a tag line that follows a line
// that is not one (lidraughts' files have blocks of tags without moves,
// one blank line apart).
func fileTags(t *testing.T, text []byte) []map[string]string {
	t.Helper()
	var games []map[string]string
	inTags := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := ratingTestTag.FindStringSubmatch(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if m == nil {
			inTags = false
			continue
		}
		if !inTags {
			games = append(games, map[string]string{})
			inTags = true
		}
		if _, dup := games[len(games)-1][m[1]]; !dup {
			games[len(games)-1][m[1]] = m[2]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// TestRatingsFromRealFiles: the games of the shared archives with rating
// tags are stored with the numbers their WhiteElo and BlackElo tags give,
// read here from the files' text by a reader of the test's own; "0000" is
// NULL, and the tags themselves are still stored as written. Games are
// compared per file as a multiset of rating pairs, not by ordinal: some
// lidraughts files begin with games that have moves but no tags, which
// only the project's reader numbers as it does.
func TestRatingsFromRealFiles(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	var paths []string
	for _, f := range ratingFiles {
		paths = append(paths, filepath.Join(sharedDir, f))
	}
	if _, err := Import(ctx, pool, paths, Options{}); err != nil {
		t.Fatal(err)
	}
	rated, zeros := 0, 0
	for _, f := range ratingFiles {
		want := map[string]int{} // "white black" ratings, "-" for none, per game with an Elo tag
		wantRaw := map[string]int{}
		tagged := 0
		for i, tags := range fileTags(t, readGz(t, filepath.Join(sharedDir, f))) {
			number := func(name string) string {
				v, ok := tags[name]
				if !ok {
					return "-"
				}
				if strings.Trim(v, "0") == "" {
					zeros++
					return "-"
				}
				n, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("%s game %d: rating %q is not a number", f, i+1, v)
				}
				rated++
				return strconv.Itoa(n)
			}
			_, wok := tags["WhiteElo"]
			_, bok := tags["BlackElo"]
			if !wok && !bok {
				continue
			}
			tagged++
			want[number("WhiteElo")+" "+number("BlackElo")]++
			wantRaw[tags["WhiteElo"]+" "+tags["BlackElo"]]++
		}
		got := lines(t, pool, `SELECT coalesce(white_rating::text, '-') || ' ' || coalesce(black_rating::text, '-')
			|| E'\t' || coalesce(g.tags->>'WhiteElo', '') || ' ' || coalesce(g.tags->>'BlackElo', '')
			FROM games g JOIN sources s ON s.id = g.source_id
			WHERE s.name LIKE '%' || `+quote(f)+` AND g.tags ?| ARRAY['WhiteElo', 'BlackElo']`)
		for _, row := range got {
			pair, raw, _ := strings.Cut(row, "\t")
			// A duplicate within the file or a rejected game is not in
			// games, so the stored pairs are some of the file's.
			if want[pair]--; want[pair] < 0 {
				t.Errorf("%s: a game stored with ratings %s, which no game of the file has (tags %s)", f, pair, raw)
			}
			if wantRaw[raw]--; wantRaw[raw] < 0 {
				t.Errorf("%s: tags stored as %q, which no game of the file has", f, raw)
			}
		}
		if len(got) < tagged*9/10 {
			t.Errorf("%s: %d of the %d games with rating tags stored; the test checks too little", f, len(got), tagged)
		}
	}
	if rated < 300 || zeros < 10 {
		t.Fatalf("%d ratings and %d zeros checked: the files changed?", rated, zeros)
	}
	if n := count(t, pool, `SELECT count(*) FROM games WHERE tags->>'WhiteElo' = '0000' AND white_rating IS NULL`); n < 5 {
		t.Fatalf("%d games with WhiteElo 0000 stored without a rating", n)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TestRatingRuleMatchesSQL: the importer's reading of a rating or id
// value is migration 0018's draughtsdb_rating and draughtsdb_player_id,
// which fill the columns of databases imported before it.
func TestRatingRuleMatchesSQL(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	values := []string{"", "?", "-", "0", "0000", "00", "1", "0985", "2313", " 2175 ", "\t1500\r\n", "9999", "10000", "12345",
		"1500?", "+1500", "-1500", "15 00", "1500.5", "2300 (prov)", "١٢٣", "abc", "01", "000123",
		"FMJD 12345", strings.Repeat("7", 32), strings.Repeat("7", 33), strings.Repeat("é", 32), strings.Repeat("é", 33), "é"}
	for _, v := range values {
		var sqlRating *int32
		var sqlID *string
		if err := pool.QueryRow(ctx, `SELECT draughtsdb_rating($1), draughtsdb_player_id($1)`, v).Scan(&sqlRating, &sqlID); err != nil {
			t.Fatal(err)
		}
		got := parseRating(v)
		if want := int32(0); sqlRating != nil {
			want = *sqlRating
			if got != want {
				t.Errorf("rating %q: Go %d, SQL %d", v, got, want)
			}
		} else if got != 0 {
			t.Errorf("rating %q: Go %d, SQL NULL", v, got)
		}
		id := parsePlayerID(v)
		if sqlID == nil && id != "" || sqlID != nil && *sqlID != id {
			t.Errorf("id %q: Go %q, SQL %v", v, id, sqlID)
		}
	}
	if parseRating("0000") != 0 || parseRating("0985") != 985 || parsePlayerID("0") != "" || parsePlayerID(" 12345 ") != "12345" {
		t.Fatal("the rule itself changed")
	}
}

// backfill is migration 0018's UPDATE, read from the file, so that it can
// be run again on games whose columns were emptied.
func backfill(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../schema/migrations/0018_ratings.sql")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, "UPDATE games g SET"), strings.Index(s, "WHERE g.id = r.id;")
	if i < 0 || j < i {
		t.Fatal("migration 0018 has no backfill UPDATE")
	}
	return s[i : j+len("WHERE g.id = r.id;")]
}

// TestRatingBackfillMatchesImport: on games imported with the rating
// columns, emptying them and running the migration's backfill from the
// stored tags gives the same columns back: on the real files and on tags
// that test the choices (a tag in another case (the first spelling
// in byte order wins), WhiteRating over WhiteElo, a zero preferred tag falling back to the other, ids).
func TestRatingBackfillMatchesImport(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	crafted := filepath.Join(dir, "crafted.pdn")
	text := strings.Join([]string{
		"[White \"a\"]\n[Black \"b\"]\n[WhiteRating \"2100\"]\n[WhiteElo \"1900\"]\n[blackelo \"1800\"]\n[WhiteFMJDId \"12345\"]\n[BlackFideId \"678\"]\n[GameType \"20\"]\n1. 32-28 *\n",
		"[White \"a\"]\n[Black \"b\"]\n[WhiteRating \"0\"]\n[WhiteElo \"1900\"]\n[BlackRating \"?\"]\n[BlackElo \"-\"]\n[WhiteFmjdId \"0\"]\n[WhiteFideId \" 4100 \"]\n[GameType \"20\"]\n1. 33-28 *\n",
		"[White \"a\"]\n[Black \"b\"]\n[WHITEELO \"1600\"]\n[WhiteElo \"1700\"]\n[BlackFmjdID \"NED-77\"]\n[BLACKFMJDID \"x\"]\n[GameType \"20\"]\n1. 34-29 *\n",
	}, "\n")
	if err := os.WriteFile(crafted, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{crafted}
	for _, f := range ratingFiles {
		paths = append(paths, filepath.Join(sharedDir, f))
	}
	if _, err := Import(ctx, pool, paths, Options{}); err != nil {
		t.Fatal(err)
	}
	const columns = `SELECT s.name || ' ' || g.ordinal || ': ' || coalesce(white_rating::text, '-') || ' ' || coalesce(black_rating::text, '-')
		|| ' ' || coalesce(white_fmjd_id, '-') || ' ' || coalesce(black_fmjd_id, '-') FROM games g JOIN sources s ON s.id = g.source_id ORDER BY 1`
	before := lines(t, pool, columns)
	wantCrafted := []string{"2100 1800 12345 678", "1900 - 4100 -", "1600 - - x"}
	for i, want := range wantCrafted {
		if got := lines(t, pool, `SELECT coalesce(white_rating::text, '-') || ' ' || coalesce(black_rating::text, '-')
			|| ' ' || coalesce(white_fmjd_id, '-') || ' ' || coalesce(black_fmjd_id, '-') FROM games g JOIN sources s ON s.id = g.source_id
			WHERE s.name LIKE '%crafted.pdn' AND g.ordinal = `+strconv.Itoa(i+1)); len(got) != 1 || got[0] != want {
			t.Errorf("crafted game %d: columns %v, want %q", i+1, got, want)
		}
	}
	if _, err := pool.Exec(ctx, `UPDATE games SET white_rating = NULL, black_rating = NULL, white_fmjd_id = NULL, black_fmjd_id = NULL`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, backfill(t)); err != nil {
		t.Fatal(err)
	}
	after := lines(t, pool, columns)
	if strings.Join(before, "\n") != strings.Join(after, "\n") {
		for i := range min(len(before), len(after)) {
			if before[i] != after[i] {
				t.Errorf("imported %q, backfilled %q", before[i], after[i])
			}
		}
		t.Fatal("the backfill does not give the importer's columns")
	}
	if n := count(t, pool, `SELECT count(*) FROM games WHERE white_rating IS NOT NULL`); n < 150 {
		t.Fatalf("%d rated games: the comparison checks too little", n)
	}
}

func lines(t *testing.T, pool *pgxpool.Pool, sql string) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), sql)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
