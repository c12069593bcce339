package hub

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// scanParamWriter declares the variant parameter as Scan 3.1 does (its
// values and its default, "normal") instead of Serve's line.
type scanParamWriter struct{ w io.Writer }

func (s *scanParamWriter) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("param name=variant ")) {
		if _, err := io.WriteString(s.w, "param name=variant value=normal type=enum values=\"normal killer bt frisian losing\"\n"); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return s.w.Write(p)
}

// TestServeEveryVariant: `draughtsdb hub --variant V` (Serve with
// Options.Variant) starts for every variant rules plays, under its name
// and under Scan's (normal, bt, losing), and so does set-param; the engine
// answers a search of the start position with a legal move.
func TestServeEveryVariant(t *testing.T) {
	for _, v := range rules.Variants() {
		for _, name := range VariantNames(v) {
			s := newSession(t, Options{Variant: strings.ToUpper(name), TTSizeMB: 4})
			s.send("hub")
			hello := strings.Join(s.until("wait"), "\n")
			if !strings.Contains(hello, "param name=variant value="+v.Name+" ") {
				t.Fatalf("--variant %s: handshake %q", name, hello)
			}
			start := v.StartPosition()
			// (send blocks until Serve reads each line: a command that
			// answers, as init, goes last.)
			s.send("init")
			s.until("ready")
			s.send("pos pos="+FormatPosition(&start), "level depth=2", "go think")
			out := s.until("done")
			done := ParseLine(out[len(out)-1])
			if _, err := ParseMove(&start, done.Args["move"]); err != nil {
				t.Fatalf("--variant %s: %q: %v", name, out, err)
			}
			// set-param reads the name too: from International to v.
			s.send("set-param name=variant value=international", "set-param name=variant value="+name,
				"pos pos="+FormatPosition(&start), "level depth=1", "go think")
			out = s.until("done")
			if _, err := ParseMove(&start, ParseLine(out[len(out)-1]).Args["move"]); err != nil {
				t.Fatalf("set-param variant %s: %q: %v", name, out, err)
			}
			s.send("quit")
		}
	}
	if _, err := VariantByName("checkers"); err != nil {
		t.Errorf("rules' other names: %v", err)
	}
}

// TestServeKingMoveLimit: the moves of a pos line count for Frisian's
// limit on moving one king, so the engine does not move it a fourth time.
func TestServeKingMoveLimit(t *testing.T) {
	s := newSession(t, Options{Variant: "frisian", TTSizeMB: 4})
	s.send("hub")
	s.until("wait")
	start, err := rules.ParseFEN(rules.Frisian, "W:WK46,50:B3,39,45")
	if err != nil {
		t.Fatal(err)
	}
	s.send("init")
	s.until("ready")
	s.send(`pos pos=`+FormatPosition(&start)+` moves="46-41 3-8 41-46 8-12 46-41 12-17"`, "level depth=5", "go think")
	out := s.until("done")
	if move := ParseLine(out[len(out)-1]).Args["move"]; !strings.HasPrefix(move, "50-") {
		t.Errorf("after three king moves in a row: %q", out)
	}
}

// TestClientScanNames: a client of an engine that declares Scan's variant
// names switches it with Scan's name for the position's variant (normal,
// bt, losing; killer and frisian as they are) and gets the analysis of the
// right game; a variant the engine does not declare is ErrVariant, not an
// analysis of another game.
func TestClientScanNames(t *testing.T) {
	c, err := Start(engineConfig(t, "scan-names"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		v    *rules.Variant
		name string
	}{{rules.Antidraughts, "losing"}, {rules.International, "normal"}, {rules.Breakthrough, "bt"},
		{rules.Killer, "killer"}, {rules.Frisian, "frisian"}, {rules.Antidraughts, "losing"}} {
		// A position where the variants' rules differ: antidraughts
		// gives the man away, breakthrough promotes.
		pos, err := rules.ParseFEN(tc.v, "W:W7,32:B1,23")
		if err != nil {
			t.Fatal(err)
		}
		want := search.Search(pos, search.Options{Depth: 4, TTSizeMB: 4}, nil)
		a, err := c.Analyze(ctx, pos, 4, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.v.Name, err)
		}
		if c.variant != tc.name || a.Score != want.Score || !a.Best.SameAs(&want.Best) {
			t.Errorf("%s: engine variant %q (want %q), score %d %s, search %d %s", tc.v.Name, c.variant, tc.name,
				a.Score, a.BestText, want.Score, FormatMove(&want.Best))
		}
	}
	if _, err := c.Analyze(ctx, rules.Russian.StartPosition(), 2, 0); !errors.Is(err, ErrVariant) {
		t.Errorf("russian on an engine that plays none: %v, want ErrVariant", err)
	}
	if c.Restarts() != 0 {
		t.Errorf("%d restarts", c.Restarts())
	}
}

// Scan 3.1's variant values (its param line, as scanParamWriter writes it)
// each read as the variant Scan means, and every name of VariantNames
// reads back as its variant.
func TestScanVariantNames(t *testing.T) {
	for name, want := range map[string]*rules.Variant{"normal": rules.International, "killer": rules.Killer,
		"bt": rules.Breakthrough, "breakthrough": rules.Breakthrough, "frisian": rules.Frisian, "losing": rules.Antidraughts} {
		if v, err := VariantByName(" " + strings.ToUpper(name)); err != nil || v != want {
			t.Errorf("%q: %v, %v; want %s", name, v, err, want.Name)
		}
	}
	for _, v := range rules.Variants() {
		for _, name := range VariantNames(v) {
			if got, err := VariantByName(name); err != nil || got != v {
				t.Errorf("%s: name %q reads as %v, %v", v.Name, name, got, err)
			}
		}
	}
}

// TestServeKingMoveCount: the moves of a pos line count for Russian's
// draw after 30 plies of king moves: after 29 of them the engine scores
// the position as the search told the count does (every king move draws),
// not as a fresh one (two kings against one, both sides moving at random
// without a capture).
func TestServeKingMoveCount(t *testing.T) {
	start, err := rules.ParseFEN(rules.Russian, "B:WK31,K32:BK2")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 200; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 0))
		pos := start
		var texts []string
		var hist []uint64
		for len(texts) < 29 {
			var quiet []rules.Move
			for _, m := range pos.LegalMoves(nil) {
				c := pos
				c.Play(&m)
				if !m.IsCapture() && !slices.Contains(hist, c.Hash()) {
					if n := c.LegalMoves(nil); len(n) > 0 && !n[0].IsCapture() {
						quiet = append(quiet, m)
					}
				}
			}
			if len(quiet) == 0 {
				break
			}
			m := quiet[rnd.IntN(len(quiet))]
			hist = append(hist, pos.Hash())
			texts = append(texts, FormatMove(&m))
			pos.Play(&m)
		}
		if len(texts) < 29 {
			continue
		}
		hist = append(hist, pos.Hash())
		counted := search.Search(pos, search.Options{Depth: 4, TTSizeMB: 4, History: hist, KingPlies: 29}, nil)
		fresh := search.Search(pos, search.Options{Depth: 4, TTSizeMB: 4, History: hist}, nil)
		if counted.Score != 0 {
			t.Fatalf("seed %d: the search with 29 plies counted scores %d, want 0", seed, counted.Score)
		}
		if fresh.Score == 0 {
			continue
		}
		s := newSession(t, Options{TTSizeMB: 4, Variant: "russian"})
		s.send("hub", "init")
		s.until("ready")
		s.send(`pos pos=`+FormatPosition(&start)+` moves="`+strings.Join(texts, " ")+`"`, "level depth=4", "go think")
		out := s.until("done")
		var score string
		for _, l := range out {
			if p := ParseLine(l); p.Cmd == "info" {
				score, _ = p.Get("score")
			}
		}
		if score != FormatScore(counted.Score) {
			t.Errorf("seed %d: after 29 king moves the server scores %s, want %s (a fresh count: %s)\n%s",
				seed, score, FormatScore(counted.Score), FormatScore(fresh.Score), strings.Join(out, "\n"))
		}
		s.send("quit")
		return
	}
	t.Fatal("no walk of 200 reached 29 king moves with a position a fresh count does not score 0")
}
