package search

import (
	"context"
	"reflect"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// gameLine returns the positions of a game the engine plays against
// itself at depth 3 from v's start, plies moves long.
func gameLine(v *rules.Variant, plies int) []rules.Position {
	pos := v.StartPosition()
	line := []rules.Position{pos}
	for range plies {
		r := Search(pos, Options{Depth: 3, TTSizeMB: 1}, nil)
		if r.Best.From() == 0 {
			break
		}
		pos.Play(&r.Best)
		line = append(line, pos)
	}
	return line
}

// TestContinue: searching the positions of a game in order with
// Options.Continue is deterministic (the same sequence gives the same
// results), reuses the table (fewer nodes than searching each position
// afresh), gives full-depth results with legal PVs, and a search without
// Continue afterwards is exactly a fresh engine's.
func TestContinue(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	for _, v := range []*rules.Variant{rules.International, rules.English} {
		line := gameLine(v, 30)
		run := func(e *Engine, cont bool) []Result {
			var out []Result
			for i, pos := range line {
				r := e.Search(context.Background(), pos, Options{Depth: 6, Continue: cont && i > 0}, nil)
				r.Time = 0
				out = append(out, r)
			}
			return out
		}
		e := NewEngine(4)
		a := run(e, true)
		b := run(NewEngine(4), true)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two runs of the same sequence with Continue differ", v.Name)
		}
		fresh := run(NewEngine(4), false)
		var na, nf uint64
		for i := range a {
			na += a[i].Nodes
			nf += fresh[i].Nodes
			if a[i].Depth != 6 || len(a[i].PV) == 0 || !a[i].PV[0].SameAs(&a[i].Best) {
				t.Fatalf("%s ply %d: %+v", v.Name, i, a[i])
			}
			p := line[i]
			for j := range a[i].PV {
				legal := p.LegalMoves(nil)
				ok := false
				for k := range legal {
					ok = ok || legal[k].SameAs(&a[i].PV[j])
				}
				if !ok {
					t.Fatalf("%s ply %d: PV move %d (%s) is illegal", v.Name, i, j, moveText(&a[i].PV[j]))
				}
				p.Play(&a[i].PV[j])
			}
		}
		if na >= nf*9/10 {
			t.Errorf("%s: %d nodes with Continue, %d afresh: the table is not reused", v.Name, na, nf)
		}
		t.Logf("%s: %d positions, %d nodes with Continue, %d afresh", v.Name, len(line), na, nf)

		// After the sequence, a search without Continue forgets it all.
		r := e.Search(context.Background(), line[len(line)/2], Options{Depth: 6}, nil)
		r.Time = 0
		if want := fresh[len(line)/2]; !reflect.DeepEqual(r, want) {
			t.Errorf("%s: a search without Continue after the sequence differs from a fresh one", v.Name)
		}
	}
	// Continue across variants starts afresh (the table holds another
	// variant's positions).
	e := NewEngine(4)
	e.Search(context.Background(), rules.International.StartPosition(), Options{Depth: 5}, nil)
	r := e.Search(context.Background(), rules.Russian.StartPosition(), Options{Depth: 5, Continue: true}, nil)
	want := Search(rules.Russian.StartPosition(), Options{Depth: 5, TTSizeMB: 4}, nil)
	if r.Nodes != want.Nodes || r.Score != want.Score || !r.Best.SameAs(&want.Best) {
		t.Errorf("Continue into another variant: %d nodes score %d, fresh %d nodes score %d", r.Nodes, r.Score, want.Nodes, want.Score)
	}
}

// TestContinueFirstIteration: a search that continues a game starts its
// iterations at one less than the depth of the table's entry for the
// position (at least 1), so that two iterations the table mostly answers
// fill the killers and history before the new depth (Engine.Search:
// starting after the entry's depth took the same nodes and broke 217
// ties and scores otherwise than an independent search, against 130).
func TestContinueFirstIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	for _, v := range []*rules.Variant{rules.International, rules.English} {
		line := gameLine(v, 20)
		e := NewEngine(1)
		checked := 0
		for i, pos := range line {
			want := 1
			if i > 0 {
				if en, ok := e.s.tt.probe(pos.Hash()); ok {
					want = max(int(en.depth)-1, 1)
					checked++
				}
			}
			var depths []int
			e.Search(context.Background(), pos, Options{Depth: 8, Continue: i > 0}, func(r Result) { depths = append(depths, r.Depth) })
			if len(depths) == 0 || depths[0] != want || depths[len(depths)-1] != 8 {
				t.Fatalf("%s ply %d: iterations %v, want %d to 8", v.Name, i, depths, want)
			}
		}
		if checked < len(line)/2 {
			t.Errorf("%s: the table held only %d of %d positions", v.Name, checked, len(line))
		}
	}
}
