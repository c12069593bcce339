package main

import (
	"strings"
	"testing"
)

// TestRedact: redact used url.URL.Redacted, which hides only the password
// of user:password@; a keyword/value string was printed whole (escaped as
// a path: host=h%20password=s3cret), and so were ?password= and a value
// that is no URL at all.
func TestRedact(t *testing.T) {
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
	isolate(t)
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
