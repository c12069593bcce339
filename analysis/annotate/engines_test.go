package annotate

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

func TestLimitCheck(t *testing.T) {
	for _, c := range []struct {
		l  Limit
		ok bool
	}{
		{Limit{Depth: 1}, true},
		{Limit{Depth: search.MaxDepth}, true},
		{Limit{Depth: 0}, false},
		{Limit{Depth: search.MaxDepth + 1}, false},
		{Limit{Depth: -3}, false},
		{Limit{MoveTime: time.Millisecond}, true},
		{Limit{Depth: 0, MoveTime: 500 * time.Millisecond}, true}, // the depth is not used
		{Limit{MoveTime: -time.Second}, false},
	} {
		if err := c.l.Check(); (err == nil) != c.ok || err != nil && !errors.Is(err, ErrLimit) {
			t.Errorf("%+v: %v", c.l, err)
		}
	}
}

func TestThresholdsCheck(t *testing.T) {
	for _, c := range []struct {
		t  Thresholds
		ok bool
	}{
		{DefaultThresholds, true},
		{Thresholds{1, 1, 1}, true},
		{Thresholds{1, 2, MaxLoss}, true},
		{Thresholds{0, 80, 200}, false},
		{Thresholds{30, 20, 200}, false},
		{Thresholds{30, 80, 70}, false},
		{Thresholds{30, 80, MaxLoss + 1}, false},
	} {
		if err := c.t.Check(); (err == nil) != c.ok || err != nil && !errors.Is(err, ErrThresholds) {
			t.Errorf("%+v: %v", c.t, err)
		}
	}
}

// closeCounter is an Evaluator that counts its closes.
type closeCounter struct{ closed int }

func (c *closeCounter) Evaluate(context.Context, rules.Position) (Eval, error) {
	return Eval{Score: -search.Win, Mate: true}, nil
}
func (c *closeCounter) Close() error { c.closed++; return nil }

// TestRunChecksOptionsFirst: Run refuses unusable options before it
// touches the database (the pool here is nil) and still closes First.
func TestRunChecksOptionsFirst(t *testing.T) {
	good := func() Options {
		return Options{Engine: "e", Setting: "depth=1", NewEvaluator: func() (Evaluator, error) { return &closeCounter{}, nil }}
	}
	for name, mod := range map[string]func(*Options){
		"no engine":        func(o *Options) { o.Engine = "" },
		"no setting":       func(o *Options) { o.Setting = "" },
		"no evaluator":     func(o *Options) { o.NewEvaluator = nil },
		"negative workers": func(o *Options) { o.Workers = -1 },
		"too many workers": func(o *Options) { o.Workers = MaxWorkers + 1 },
		"negative batch":   func(o *Options) { o.Batch = -1 },
		"negative lease":   func(o *Options) { o.Lease = -time.Second },
		"negative limit":   func(o *Options) { o.Limit = -1 },
		"negative max ply": func(o *Options) { o.MaxPly = -1 },
		"thresholds":       func(o *Options) { o.Thresholds = Thresholds{Inaccuracy: 100, Mistake: 80, Blunder: 200} },
	} {
		o := good()
		first := &closeCounter{}
		o.First = first
		mod(&o)
		sum, err := Run(context.Background(), nil, o)
		if err == nil || sum != nil {
			t.Errorf("%s: %+v, %v; want an error", name, sum, err)
		}
		if first.closed != 1 {
			t.Errorf("%s: First closed %d times", name, first.closed)
		}
	}
	// Zero values take the defaults.
	o := good()
	if err := o.check(); err != nil || o.Workers != 1 || o.Batch != 16 || o.Lease != time.Minute || o.Thresholds != DefaultThresholds || o.Where != "true" || o.Owner == "" {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}

func TestOpenEngine(t *testing.T) {
	lim := Limit{Depth: 2}
	e, err := OpenEngine(context.Background(), "builtin", nil, EngineOptions{Limit: lim})
	if err != nil || e.Name != search.Name || e.Version != evalid.Version() || e.First != nil {
		t.Fatalf("builtin: %+v, %v", e, err)
	}
	ev, err := e.New()
	if err != nil {
		t.Fatal(err)
	}
	pos := rules.Russian.StartPosition()
	got, err := ev.Evaluate(context.Background(), pos)
	want := search.Search(pos, search.Options{Depth: 2}, nil)
	if err != nil || got.Score != want.Score || got.Depth != 2 {
		t.Errorf("builtin evaluator: %+v %v, want score %d", got, err, want.Score)
	}

	for _, c := range []struct {
		spec string
		args []string
		lim  Limit
		want error
	}{
		{"builtin", []string{"hub"}, lim, ErrEngineSpec},
		{"hub:", nil, lim, ErrEngineSpec},
		{"hub", nil, lim, ErrEngineSpec},
		{"scan", nil, lim, ErrEngineSpec},
		{"", nil, lim, ErrEngineSpec},
		{strings.Repeat("ü", 500), nil, lim, ErrEngineSpec},
		{"builtin", nil, Limit{}, ErrLimit},
		{"builtin", nil, Limit{Depth: search.MaxDepth + 1}, ErrLimit},
		{"hub:/bin/true", nil, Limit{}, ErrLimit}, // checked before the engine starts
	} {
		_, err := OpenEngine(context.Background(), c.spec, c.args, EngineOptions{Limit: c.lim})
		if !errors.Is(err, c.want) || len(err.Error()) > 250 {
			t.Errorf("%.20q %q %+v: %v, want %v", c.spec, c.args, c.lim, err, c.want)
		}
	}
	// A program that is not there: the error names it and is no spec error.
	missing := t.TempDir() + "/no-such-engine"
	if _, err := OpenEngine(context.Background(), "hub:"+missing, nil, EngineOptions{Limit: lim}); err == nil || errors.Is(err, ErrEngineSpec) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing program: %v", err)
	}
}

// TestOpenEngineHub: hub:PATH with --engine-arg style arguments starts
// the program once to read its name (the test binary serving Hub), gives
// that evaluator as First and starts one more per New; the evaluations
// equal the built-in engine's.
func TestOpenEngineHub(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(engineEnv, "1")
	var notices []string
	e, err := OpenEngine(context.Background(), "hub:"+exe, []string{"-test.run=^$"}, EngineOptions{Limit: Limit{Depth: 3}, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Name != search.Name || e.Version != evalid.Version() || e.First == nil {
		t.Fatalf("hub engine: %+v", e)
	}
	second, err := e.New()
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	pos := rules.International.StartPosition()
	b, _ := NewBuiltin(Limit{Depth: 3}, 4).Evaluate(context.Background(), pos)
	for _, ev := range []Evaluator{e.First, second} {
		h, err := ev.Evaluate(context.Background(), pos)
		if err != nil || h.Score != b.Score || h.Best != b.Best || h.PV != b.PV || h.Nodes != b.Nodes {
			t.Errorf("hub %+v %v, builtin %+v", h, err, b)
		}
	}
	if err := e.Close(); err != nil || e.First != nil {
		t.Errorf("close: %v", err)
	}
	if len(notices) != 0 {
		t.Errorf("notices: %q", notices)
	}
}

// TestFinishedGamesFollowTheWinRule: a finished position's verdict comes
// from the variant's Win rule, not from "no legal move loses": in
// antidraughts the side without pieces has won, in breakthrough the side
// with a king; positions that go on are searched.
func TestFinishedGamesFollowTheWinRule(t *testing.T) {
	b := NewBuiltin(Limit{Depth: 2}, 1)
	for _, c := range []struct {
		v     *rules.Variant
		fen   string
		score int // the side to move's; 0: the game goes on
	}{
		{rules.International, "W:W:B1,2", -search.Win},
		{rules.Antidraughts, "W:W:B1,2", search.Win},
		{rules.Antidraughts, "B:W11,12:B", search.Win},
		{rules.Breakthrough, "B:WK3,40:B20,30", -search.Win},
		{rules.Breakthrough, "W:WK3,40:B20,30", search.Win},
		{rules.Breakthrough, "W:W40:B20,30", 0},
		{rules.International, "W:WK3,40:B20,30", 0},
	} {
		pos, err := rules.ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		e, err := b.Evaluate(context.Background(), pos)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.score != 0 && (e.Score != c.score || !e.Mate || e.Best != ""):
			t.Errorf("%s %s: %+v, want score %d and no move", c.v.Name, c.fen, e, c.score)
		case c.score == 0 && e.Best == "":
			t.Errorf("%s %s: %+v, want a searched position", c.v.Name, c.fen, e)
		}
	}
}

// TestOpenEngineEndgame: with endgame tables the built-in evaluator scores
// a won ending as the win the tables give (a depth-1 search alone does not
// see it), its version names the tables, and a variant the tables are not
// of is evaluated as without them.
func TestOpenEngineEndgame(t *testing.T) {
	tabs, err := endgame.Generate(rules.English, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	of := func(v *rules.Variant) *endgame.Tables {
		if v == rules.English {
			return tabs
		}
		return nil
	}
	e, err := OpenEngine(context.Background(), "builtin", nil, EngineOptions{Limit: Limit{Depth: 1}, Endgame: of, EndgamePieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := evalid.Version() + "+endgame.3"; e.Version != want {
		t.Errorf("version %q, want %q", e.Version, want)
	}
	ev, err := e.New()
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.ParseFEN(rules.English, "W:WK1,29:BK10") // won in 47 plies
	if err != nil {
		t.Fatal(err)
	}
	got, err := ev.Evaluate(context.Background(), pos)
	plain := search.Search(pos, search.Options{Depth: 1}, nil)
	if err != nil || !got.Mate || got.Score != search.Win-47 || plain.Mate {
		t.Errorf("with the tables: %+v %v; without: %+v; want a win in 47 plies with them only", got, err, plain)
	}
	ru := rules.Russian.StartPosition()
	got, err = ev.Evaluate(context.Background(), ru)
	if want := search.Search(ru, search.Options{Depth: 1}, nil); err != nil || got.Score != want.Score || got.Nodes != int64(want.Nodes) {
		t.Errorf("russian with English tables: %+v %v, want %+v", got, err, want)
	}
}
