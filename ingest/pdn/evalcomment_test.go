package pdn

import (
	"testing"
	"time"
)

// TestEvalCommentRoundTrip: what FormatEvalComment writes,
// ParseEvalComment reads back, whatever the side to move and the bytes of
// the values; bare PGN-style comments get the defaults.
func TestEvalCommentRoundTrip(t *testing.T) {
	best := "28x19x10"
	cases := []Evaluation{
		{Engine: "draughtsdb", Setting: "depth=8", Score: 25, Depth: 8, BestMove: &best, PV: "32-28 19-23", Nodes: 12345, TimeMS: 15, EngineVersion: "0.1",
			EvaluatedAt: time.Date(2026, 11, 29, 10, 0, 0, 123456000, time.UTC)},
		{Engine: " odd  engine [v2] {x} 100% \"q\"\t", Setting: "", Score: -29950, Mate: true, Depth: 0, PV: ""},
		{Engine: "Scan", Setting: "movetime=500", Score: -7, Depth: 21, PV: "a b  c ", EngineVersion: "3.1 beta"},
		{Engine: "x", Setting: "y", Score: 100},
	}
	for i, e := range cases {
		for _, white := range []bool{true, false} {
			c := FormatEvalComment(&e, white)
			got, ok, err := ParseEvalComment(c, white)
			if !ok || err != nil {
				t.Fatalf("case %d: %q: ok %v err %v", i, c, ok, err)
			}
			if !got.EvaluatedAt.Equal(e.EvaluatedAt) {
				t.Errorf("case %d: at %v want %v", i, got.EvaluatedAt, e.EvaluatedAt)
			}
			got.EvaluatedAt = e.EvaluatedAt
			if (got.BestMove == nil) != (e.BestMove == nil) || got.BestMove != nil && *got.BestMove != *e.BestMove {
				t.Errorf("case %d: best move %v want %v", i, got.BestMove, e.BestMove)
			}
			got.BestMove = e.BestMove
			if got != e {
				t.Errorf("case %d (white %v): %q\n got %+v\nwant %+v", i, white, c, got, e)
			}
		}
	}
	// White's view: the side to move's -0.40 is White's +0.40 when Black moves.
	if c := FormatEvalComment(&Evaluation{Score: -40}, false); c[:12] != "[%eval 0.40]" {
		t.Errorf("black to move, -40: %q", c)
	}
	// Bare PGN-style comments: defaults.
	e, ok, err := ParseEvalComment("[%eval -1.5][%depth 12]", true)
	if !ok || err != nil || e.Score != -150 || e.Depth != 12 || e.Engine != "pdn" || e.Setting != "" || !e.EvaluatedAt.IsZero() {
		t.Errorf("bare comment: %+v %v %v", e, ok, err)
	}
	if _, ok, _ := ParseEvalComment("a good move [%clk 0:01:00]", true); ok {
		t.Error("a comment without an eval command is an evaluation")
	}
	if _, _, err := ParseEvalComment("[%eval x]", true); err == nil {
		t.Errorf("%q accepted", "[%eval x]")
	}
}
