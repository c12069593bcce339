package ingest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestAppendStoresAsImportDoes: games appended one at a time to a source
// end up exactly as importing them in one file stores them (games by
// ordinal, duplicates, rejections, position index, opening statistics);
// the source grows with each Append and keeps its name and identity.
func TestAppendStoresAsImportDoes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := writeSynth(t, dir, rules.International, 12, 7)
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// One game twice (a duplicate) and one that replay refuses.
	var games [][]byte
	rd := pdn.NewReader(bytes.NewReader(text), "x")
	for {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, append([]byte(nil), g.Raw...))
	}
	games = append(games, games[3], []byte("[Event \"bad\"]\n[GameType \"20\"]\n1. 32-27 32-28 *\n"))
	all := bytes.Join(games, []byte("\n"))
	whole := filepath.Join(dir, "all.pdn")
	if err := os.WriteFile(whole, all, 0o644); err != nil {
		t.Fatal(err)
	}

	imported := pgtest.NewDB(t)
	if _, err := Import(ctx, imported, []string{whole}, Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	appended := pgtest.NewDB(t)
	if _, _, ok, err := schema.AppendedSource(ctx, appended, "m1"); ok || err != nil {
		t.Fatalf("a source before any Append: %v %v", ok, err)
	}
	for i, g := range games {
		sum, err := Append(ctx, appended, "m1", "match: test", g, Options{})
		if err != nil {
			t.Fatalf("append %d: %v", i+1, err)
		}
		if sum.First != i+1 || sum.Last != i+1 {
			t.Fatalf("append %d: ordinals %d..%d", i+1, sum.First, sum.Last)
		}
		switch i {
		case len(games) - 2:
			if sum.Duplicates != 1 {
				t.Errorf("the repeated game: %+v", sum)
			}
		case len(games) - 1:
			if sum.Rejected != 1 {
				t.Errorf("the illegal game: %+v", sum)
			}
		default:
			if sum.Imported != 1 {
				t.Errorf("game %d: %+v", i+1, sum)
			}
		}
		id, n, ok, err := schema.AppendedSource(ctx, appended, "m1")
		if err != nil || !ok || n != i+1 || id != sum.SourceID {
			t.Fatalf("after append %d: source %d with %d games (%v, %v)", i+1, id, n, ok, err)
		}
	}
	// Two games in one text, to another key: a second source.
	sum, err := Append(ctx, appended, "m2", "other", bytes.Join(games[:2], []byte("\n")), Options{})
	if err != nil || sum.First != 1 || sum.Last != 2 || sum.Duplicates != 2 {
		t.Fatalf("second source: %+v, %v", sum, err)
	}
	if _, err := appended.Exec(ctx, `DELETE FROM sources WHERE sha256 = 'append:m2'`); err != nil {
		t.Fatal(err)
	}

	norm := func(rows []string) string {
		out := strings.Join(rows, "\n")
		for _, id := range []string{"append:m1"} {
			out = strings.ReplaceAll(out, id, "SOURCE")
		}
		var sha string
		imported.QueryRow(ctx, `SELECT sha256 FROM sources`).Scan(&sha) //nolint:errcheck
		return strings.ReplaceAll(out, sha, "SOURCE")
	}
	snap := snapshot(t, appended)
	if len(snap) < 16 {
		t.Fatalf("snapshot of %d rows", len(snap))
	}
	if a, b := norm(snapshot(t, imported)), norm(snap); a != b {
		t.Errorf("appended games differ from imported ones:\nimported:\n%s\nappended:\n%s", a, b)
	}
	var name, status string
	var read, gamesImported, dups, rejected int
	if err := appended.QueryRow(ctx, `SELECT name, status, games_read, games_imported, duplicates, rejected FROM sources`).
		Scan(&name, &status, &read, &gamesImported, &dups, &rejected); err != nil {
		t.Fatal(err)
	}
	if name != "match: test" || status != "done" || read != 14 || gamesImported != 12 || dups != 1 || rejected != 1 {
		t.Errorf("source %q %s: read %d imported %d duplicates %d rejected %d", name, status, read, gamesImported, dups, rejected)
	}
	if _, err := Append(ctx, appended, "", "x", games[0], Options{}); err == nil {
		t.Error("an empty key was taken")
	}
}
