package dxp

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestServerSeesRepetitions: the server searches with the game's history,
// as match's built-in player does, so it declines a move that repeats an
// earlier position of the game when another move scores better. Two kings
// against a king and a man (White, the server, a king up; no endgame rule
// of FMJD's applies, which the server would end the game by) with Black
// moving at random: the test follows the game with the same engine, finds a
// position where the search without the history picks a move back into a
// position already played, and checks that the server played the move the
// search with the history picks instead (every other move of the server
// must equal that search's too).
func TestServerSeesRepetitions(t *testing.T) {
	const depth = 4
	lim := engine.Limit{Depth: depth}
	start, err := rules.ParseFEN(rules.International, "W:WK48,K28:BK3,6")
	if err != nil {
		t.Fatal(err)
	}
	ref := engine.NewBuiltin(1)
	ctx := context.Background()
	search := func(g engine.Game) engine.Result {
		r, err := ref.Search(ctx, g, lim)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Find a game (a seed for Black's moves) in which the point comes.
	type point struct {
		seed              uint64
		moves             []rules.Move
		noHistory, played rules.Move
		score             int
	}
	var found *point
	for seed := uint64(1); seed <= 50 && found == nil; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 0))
		g := engine.Game{Start: start}
		// The server ends a game drawn by FMJD's endgame rules (as the
		// match referee does): the point must come before that. Every
		// pass below counts its position once (one move a pass).
		var ending rules.EndingCounter
		for len(g.Moves) < 40 && found == nil {
			pos, hist, _, err := g.Position()
			if err != nil {
				t.Fatal(err)
			}
			legal := pos.LegalMoves(nil)
			if len(legal) == 0 || pos.Outcome() != rules.Undecided {
				break
			}
			ending.Update(&pos)
			if ending.Drawn() {
				break
			}
			if pos.SideToMove() == rules.Black {
				g.Moves = append(g.Moves, legal[rnd.IntN(len(legal))])
				continue
			}
			with := search(g)
			without := search(engine.Game{Start: pos})
			after := pos
			after.Play(&without.Move)
			// A repetition the history-aware search also plays (no move
			// scores better) is no test of it: play on.
			if slices.Contains(hist, after.Hash()) && !without.Move.SameAs(&with.Move) {
				found = &point{seed: seed, moves: slices.Clone(g.Moves), noHistory: without.Move, played: with.Move, score: with.Score}
				break
			}
			g.Moves = append(g.Moves, with.Move)
		}
	}
	if found == nil {
		t.Fatal("no game of 50 reached a position where the search without history repeats")
	}
	if found.score <= 0 {
		t.Fatalf("seed %d: the move chosen instead scores %d, want better than the repetition's 0", found.seed, found.score)
	}

	// Play that game against the server: its White moves must be the
	// history-aware search's, up to and including the point.
	srv := startServer(t, ServerOptions{Limit: lim})
	p, _ := dial(t, srv.addr)
	if err := p.Start(ctx, Game{Start: start, Engine: rules.White, Minutes: 10}); err != nil {
		t.Fatal(err)
	}
	pos := start
	var last *rules.Move
	for i := 0; ; i++ {
		if pos.SideToMove() == rules.White {
			m, err := p.Move(ctx, pos, last)
			if err != nil {
				t.Fatalf("ply %d: %v", i+1, err)
			}
			want := found.played
			if i < len(found.moves) {
				want = found.moves[i]
			}
			if !m.SameAs(&want) {
				t.Fatalf("seed %d ply %d: the server played %s, want %s (the search with the game's history)", found.seed, i+1, hub.FormatMove(&m), hub.FormatMove(&want))
			}
			if i == len(found.moves) {
				if m.SameAs(&found.noHistory) {
					t.Fatalf("the server repeated with %s", hub.FormatMove(&m))
				}
				break
			}
			pos.Play(&m)
			continue
		}
		m := found.moves[i]
		last = &found.moves[i]
		pos.Play(&m)
	}
	if err := p.End(ctx, EndUnknown); err != nil {
		t.Fatal(err)
	}
	t.Logf("seed %d: at ply %d the server played %s, not the repeating %s (score %d)", found.seed, len(found.moves)+1,
		hub.FormatMove(&found.played), hub.FormatMove(&found.noHistory), found.score)
}

// TestServerDrawsByEndgameRule: two kings against one king, the server
// White and a king up. FMJD's rule draws the game after five moves of
// each side (a capture within the same rule's material, to a king against
// a king, does not start the count again); the server, whose search sees
// no win either way, must end the game itself with a GAMEEND, a draw, in
// answer to Black's fifth move (ply 10), as the match referee rules, and
// not play on. Black's moves are the engine's own (depth 6), so the game
// is the same every run; the test's own counter (rules.EndingCounter)
// says when the rule has drawn.
func TestServerDrawsByEndgameRule(t *testing.T) {
	start, err := rules.ParseFEN(rules.International, "W:WK48,K3:BK28")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ref := engine.NewBuiltin(1)
	srv := startServer(t, ServerOptions{Limit: engine.Limit{Depth: 6}})
	p, _ := dial(t, srv.addr)
	if err := p.Start(ctx, Game{Start: start, Engine: rules.White, Minutes: 10}); err != nil {
		t.Fatal(err)
	}
	g := engine.Game{Start: start}
	pos := start
	var ending rules.EndingCounter
	ending.Update(&pos)
	var last *rules.Move
	var played rules.Move
	for len(g.Moves) < 40 {
		if _, bk := pos.Count(rules.Black); bk == 0 {
			t.Fatalf("ply %d: the server took Black's king: no draw to test", len(g.Moves))
		}
		if pos.SideToMove() == rules.White {
			m, err := p.Move(ctx, pos, last)
			if ending.Drawn() {
				var ge *GameEndError
				if !errors.As(err, &ge) || ge.End.Reason != EndDraw || ge.Ply != len(g.Moves) {
					t.Fatalf("after ply %d (drawn by the %d-move rule) Move = %v, %v; want the server's GAMEEND, a draw, at that ply", len(g.Moves), ending.Class(), hub.FormatMove(&m), err)
				}
				r := srv.record(t)
				if r.Result != "1/2-1/2" || !strings.Contains(r.End, "5-move") || len(r.Moves) != len(g.Moves) {
					t.Errorf("record: result %q, end %q, %d moves; want a draw by the 5-move endgame rule after %d", r.Result, r.End, len(r.Moves), len(g.Moves))
				}
				if len(g.Moves) != 10 {
					t.Errorf("drawn after %d plies, want 10 (five moves each)", len(g.Moves))
				}
				return
			}
			if err != nil {
				t.Fatalf("ply %d: %v", len(g.Moves)+1, err)
			}
			played = m
		} else {
			if ending.Drawn() {
				t.Fatalf("the server's own move, ply %d, drew by the rule: the test expects Black's move to", len(g.Moves))
			}
			r, err := ref.Search(ctx, g, engine.Limit{Depth: 6})
			if err != nil {
				t.Fatal(err)
			}
			played = r.Move
			last = &r.Move
		}
		pos.Play(&played)
		g.Moves = append(g.Moves, played)
		ending.Update(&pos)
	}
	t.Fatal("40 plies of a 5-move-rule ending without a GAMEEND")
}
