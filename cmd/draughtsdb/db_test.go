package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestRedact: redact used url.URL.Redacted, which hides only the password
// of user:password@; a keyword/value string was printed whole (escaped as
// a path: host=h%20password=s3cret), and so were ?password= and a value
// that is no URL at all.
func TestRedact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:s3cret@h:5432/d?sslmode=disable", "postgres://u:xxxxx@h:5432/d?sslmode=disable"},
		{"postgres://u@h/d?password=s3cret", "postgres://u@h/d?password=xxxxx"},
		{"postgresql://u@h/d?sslmode=disable&PassWord=s3cret&application_name=a", "postgresql://u@h/d?sslmode=disable&PassWord=xxxxx&application_name=a"},
		{"postgres://u@h/d?pass%77ord=s3cret", "postgres://u@h/d?pass%77ord=xxxxx"},
		{"postgres://u:12#s3cret@h/d", "postgres://u:12"},
		{"postgres://u@h/d", "postgres://u@h/d"},
		{"host=127.0.0.1 port=1 user=u password=s3cret dbname=d", "host=127.0.0.1 port=1 user=u password=xxxxx dbname=d"},
		{"host=/tmp/my dir password = 's3 cret\\' x' dbname=d", ""}, // "dir" has no '='
		{"host='/tmp/my dir' password = 's3 cret\\' x' dbname=d", "host='/tmp/my dir' password = xxxxx dbname=d"},
		{" PASSWORD=s3\\ cret\thost=h ", " PASSWORD=xxxxx\thost=h "},
		{"host=h password='s3cret", ""},
		{"not a url s3cret", ""},
		{"s3cret", ""},
	} {
		got := redact(tc.in)
		if tc.want == "" {
			tc.want = "(unparsable database URL)"
		}
		if got != tc.want || strings.Contains(got, "s3") {
			t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDatabaseURLPasswordNotPrinted: db status, start and stop and config
// print the configured URL; none may show its password, whichever form it
// is in (port 1: nothing answers there).
func TestDatabaseURLPasswordNotPrinted(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	for _, u := range []string{
		"host=127.0.0.1 port=1 user=u password=s3cret dbname=d",
		"postgres://u@127.0.0.1:1/d?password=s3cret",
		"not a url s3cret",
	} {
		for _, args := range [][]string{{"db", "status"}, {"db", "start"}, {"db", "stop"}, {"config"}} {
			out, err := runCLI(t, append([]string{"--database-url", u}, args...)...)
			if err != nil {
				out += "\nerror: " + err.Error()
			}
			if strings.Contains(out, "s3cret") {
				t.Errorf("%v with %q prints the password:\n%s", args, u, out)
			}
		}
	}
	if got := configValue(t, "database.url", "--database-url", "host=h user=u password=s3cret"); got != "host=h user=u password=xxxxx" {
		t.Errorf("config: database.url: %s", got)
	}
}

// TestNewerSchemaRefused: a database a newer draughtsdb migrated was used
// by every command (db status said "13 applied, -1 pending"). Commands that
// open it now fail with schema.ErrSchemaNewer; db status reports it
// without negative counts, listing the unknown migration, then fails too.
func TestNewerSchemaRefused(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	ctx := context.Background()
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "db", "migrate", "--database-url", url); err != nil {
		t.Fatal(err)
	}
	ms, err := schema.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	known := len(ms)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "INSERT INTO draughtsdb_migrations (version, name, checksum) VALUES ($1, 'future', 'x')", known+1); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the database's schema is at version %d, newer than this draughtsdb knows (%d): use a newer draughtsdb", known+1, known)
	for _, args := range [][]string{{"db", "migrate"}, {"db", "start"}, {"openings"}, {"import", "--quiet", "../../ingest/sample/oca-english-200.pdn"}} {
		_, err := runCLI(t, append(args, "--database-url", url)...)
		if !errors.Is(err, schema.ErrSchemaNewer) || err.Error() != want {
			t.Errorf("%v: err %v, want %q", args, err, want)
		}
	}
	var sources int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM sources").Scan(&sources); err != nil || sources != 0 {
		t.Errorf("import made %d sources (%v)", sources, err)
	}
	out, err := runCLI(t, "db", "status", "--database-url", url)
	if !errors.Is(err, schema.ErrSchemaNewer) {
		t.Errorf("db status: err %v, want ErrSchemaNewer", err)
	}
	for _, line := range []string{
		fmt.Sprintf("migrations: %d applied, 0 pending, 1 more applied by a newer draughtsdb\n", known),
		fmt.Sprintf("  %04d_future ", known+1),
	} {
		if !strings.Contains(out, line) {
			t.Errorf("db status does not say %q:\n%s", line, out)
		}
	}
}
