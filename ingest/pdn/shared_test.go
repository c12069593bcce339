package pdn

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shared archives live gzipped in testdata/shared (copies of
// /work/shared/testdata/pdn, see testdata/shared/README.md).

func openShared(t testing.TB, rel string) io.ReadCloser {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "shared", rel+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}
}

type readResult struct {
	games  []*Game
	errs   []*SyntaxError
	good   int
	warned []Warning
}

func readAll(t testing.TB, r io.Reader, name string) readResult {
	t.Helper()
	var res readResult
	rd := NewReader(r, name)
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return res
		}
		var se *SyntaxError
		switch {
		case errors.As(err, &se):
			res.errs = append(res.errs, se)
		case err != nil:
			t.Fatalf("%s: %v", name, err)
		default:
			res.good++
		}
		res.games = append(res.games, g)
		res.warned = append(res.warned, g.Warnings...)
	}
}

// sharedCounts: games per file, counted independently of the reader: tag
// blocks (a tag line not preceded by a tag line, counted with awk), plus
// the games without tags checked by hand: frisian 16 tag blocks + 8 bare
// move lines, russian 21 + 1, standard 17 tag-only lines (lidraughts
// export with literal "\n") + 13 games; micro files one game each; Cat.C1
// 45 + a stray "36x27 1-0" fragment at its end.
var sharedCounts = map[string]int{
	"testsuite/succeed/090417ronde12.pdn":            7,
	"testsuite/succeed/Campionato Assoluto 2005.pdn": 53,
	"testsuite/succeed/Cat.B1.pdn":                   37,
	"testsuite/succeed/Cat.D1.pdn":                   19,
	"testsuite/succeed/DUTCH96H.pdn":                 13,
	"testsuite/succeed/OCA_2.0.pdn":                  43,
	"testsuite/succeed/PROF2.pdn":                    16,
	"testsuite/succeed/PWCP 2a.pdn":                  59,
	"testsuite/succeed/PWCP_2.pdn":                   51,
	"testsuite/succeed/Principles of Strategy.pdn":   16,
	"testsuite/succeed/Tricks traps and shots.pdn":   91,
	"testsuite/succeed/alphanumeric.pdn":             1,
	"testsuite/succeed/beginner.pdn":                 58,
	"testsuite/succeed/borderclassics.pdn":           183,
	"testsuite/succeed/bridges.pdn":                  267,
	"testsuite/succeed/candidate95.pdn":              8,
	"testsuite/succeed/fen.pdn":                      3,
	"testsuite/succeed/gameterminator.pdn":           1,
	"testsuite/succeed/gem.pdn":                      162,
	"testsuite/succeed/goulds.pdn":                   262,
	"testsuite/succeed/inferno.pdn":                  68,
	"testsuite/succeed/kurnik.pdn":                   4,
	"testsuite/succeed/linecomment.pdn":              1,
	"testsuite/succeed/lpc.pdn":                      100,
	"testsuite/succeed/movestrength.pdn":             1,
	"testsuite/succeed/mrcd2000kval.pdn":             40,
	"testsuite/succeed/mrcd2006.pdn":                 44,
	"testsuite/succeed/mrcd2007.pdn":                 102,
	"testsuite/succeed/nk ronde 01.pdn":              7,
	"testsuite/succeed/nk ronde 02.pdn":              7,
	"testsuite/succeed/nk2003-amsterdam.pdn":         33,
	"testsuite/succeed/rk ronde 12.pdn":              7,
	"testsuite/succeed/schildpad.pdn":                34,
	"testsuite/succeed/string.pdn":                   1,
	"testsuite/succeed/unicode.pdn":                  1,
	"testsuite/succeed/ussr1947.pdn":                 153,
	"testsuite/succeed/variation.pdn":                1,
	"testsuite/succeed/windragon.pdn":                1,
	"testsuite/succeed/wk2003.pdn":                   23,
	"english/OCA_2.0.pdn":                            22621,
	"international/babasy1.pdn":                      43,
	"international/babasy2.pdn":                      42,
	"international/babasy3.pdn":                      49,
	"international/babasy4.pdn":                      49,
	"international/babasy5.pdn":                      41,
	"international/babasy6.pdn":                      47,
	"international/babasy7.pdn":                      30,
	"international/babasy8.pdn":                      30,
	"international/diversen.pdn":                     13,
	"international/flankgam.pdn":                     5,
	"international/flankopn.pdn":                     8,
	"international/loi20.pdn":                        22,
	"international/loi21.pdn":                        24,
	"international/loi22.pdn":                        18,
	"international/loi23.pdn":                        12,
	"international/loi24.pdn":                        18,
	"international/opening1.pdn":                     44,
	"international/opening2.pdn":                     46,
	"international/sijbgant.pdn":                     6,
	"international/sur01.pdn":                        77,
	"international/sur06.pdn":                        73,
	"international/sur11.pdn":                        61,
	"international/sur16.pdn":                        66,
	"international/toprest1.pdn":                     27,
	"international/toprest2.pdn":                     26,
	"international/wierswal.pdn":                     20,
	"online/american.pdn":                            30,
	"online/antidraughts.pdn":                        25,
	"online/brazilian.pdn":                           25,
	"online/breakthrough.pdn":                        25,
	"online/frisian.pdn":                             24,
	"online/frysk.pdn":                               25,
	"online/russian.pdn":                             22,
	"online/standard.pdn":                            30,
}

func TestSharedFilesReadWithoutErrors(t *testing.T) {
	for rel, want := range sharedCounts {
		if testing.Short() && strings.HasPrefix(rel, "english/") {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			f := openShared(t, rel)
			defer f.Close()
			res := readAll(t, f, rel)
			for _, e := range res.errs {
				t.Errorf("unexpected error: %v", e)
			}
			if len(res.games) != want {
				t.Errorf("read %d games, want %d", len(res.games), want)
			}
		})
	}
}

type report struct {
	line   int
	reason string // substring
	err    bool   // a *SyntaxError (true) or a Warning
}

// failFiles: the strict suite's rejects. Besides the reports listed, the
// files carry forms this reader accepts on purpose (DOMAIN.md quirks):
// 40Camp a date range "2004.10.27 - 2004.11.01"; Cat.A1 and Cat.C1 FENs
// with a trailing dot; abatsiev "1. - -" unknown moves; delfts leading
// zeros "01-06" and the match score "4-6" as result; mrdrcd07/08 Czech
// games with "1-1" results and full capture paths "f2xd4xf6xh8".
var failFiles = []struct {
	file    string
	games   int
	good    int
	reports []report
}{
	{"40Camp.DamaInternazionaleAssoluto.pdn", 45, 45, []report{
		{21, "result 1-0 differs from the Result tag 0-1", false},
		{226, "no result at the end of the game", false},
	}},
	{"Cat.A1.pdn", 35, 34, []report{
		{405, `unexpected "."`, true},
		{405, "result 1-0 differs from the Result tag *", false},
	}},
	{"Cat.C1.pdn", 46, 46, []report{
		{579, "no result at the end of the game", false},
		{611, "moves without tags after a game with tags", false},
	}},
	{"abatsiev.pdn", 56, 56, nil},
	{"delfts.pdn", 2, 2, nil},
	{"mrdrcd07.pdn", 72, 72, nil},
	{"mrdrcd08.pdn", 40, 40, nil},
	{"nested_comment.pdn", 1, 0, []report{
		{1, "'}' without a matching '{'", true},
	}},
}

func TestFailFilesReportDefectsAndKeepGoing(t *testing.T) {
	for _, tc := range failFiles {
		t.Run(tc.file, func(t *testing.T) {
			f := openShared(t, "testsuite/fail/"+tc.file)
			defer f.Close()
			res := readAll(t, f, tc.file)
			if len(res.games) != tc.games || res.good != tc.good {
				t.Errorf("games %d good %d, want %d and %d", len(res.games), res.good, tc.games, tc.good)
			}
			var got []report
			for _, e := range res.errs {
				got = append(got, report{e.Line, e.Reason, true})
				if e.File != tc.file || e.Column < 1 || e.Game < 1 {
					t.Errorf("incomplete error %+v", e)
				}
			}
			for _, w := range res.warned {
				got = append(got, report{w.Line, w.Reason, false})
			}
			if len(got) != len(tc.reports) {
				t.Errorf("got %d reports %+v, want %d", len(got), got, len(tc.reports))
			}
			for _, want := range tc.reports {
				found := false
				for _, g := range got {
					if g.line == want.line && g.err == want.err && strings.Contains(g.reason, want.reason) {
						found = true
					}
				}
				if !found {
					t.Errorf("missing report %+v in %+v", want, got)
				}
			}
		})
	}
}
