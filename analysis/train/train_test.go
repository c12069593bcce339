package train

import (
	"bytes"
	"context"
	"encoding/gob"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestTinyTraining: a few hundred self-play games at depth 2 go through the
// whole recipe. The chunks are the same for the same seed, a second run
// plays nothing, the fit beats a coin on the held-out games, resumes from
// its checkpoint, and the weights file it writes evaluates as the float
// weights it fitted (to the rounding), the start position 0 and an extra
// man as a gain.
func TestTinyTraining(t *testing.T) {
	dir := t.TempDir()
	v := rules.International
	o := GenOptions{Variant: v, Dir: dir, Games: 300, ChunkGames: 30, Seed: 7, Depth: 2, RandomPlies: 6, MaxPlies: 150}
	played := 0
	if err := Generate(context.Background(), o, func(n, total int) { played = n }); err != nil {
		t.Fatal(err)
	}
	if played != 300 {
		t.Fatalf("played %d games, want 300", played)
	}
	files, err := Chunks(dir)
	if err != nil || len(files) != 10 {
		t.Fatalf("%d chunks (%v), want 10", len(files), err)
	}
	played = 0
	if err := Generate(context.Background(), o, func(n, total int) { played = n }); err != nil || played != 0 {
		t.Fatalf("second run played %d games (%v), want none", played, err)
	}
	// The same seed gives the same chunks, played by one worker or by
	// three at once.
	o2 := o
	o2.Dir, o2.Games, o2.Workers = t.TempDir(), 90, 3
	if err := Generate(context.Background(), o2, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		a, _ := os.ReadFile(ChunkPath(dir, i))
		b, _ := os.ReadFile(ChunkPath(o2.Dir, i))
		if !bytes.Equal(a, b) || len(a) == 0 {
			t.Fatalf("chunk %d differs between a run with one worker and one with three, seed 7 (%d and %d bytes)", i, len(a), len(b))
		}
	}
	recs, err := ReadChunk(ChunkPath(dir, 0), v)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		pos := recs[i].Position(v)
		if r := recordOf(&pos, int(recs[i].Ply), int(recs[i].Score)); r.Men != recs[i].Men || r.Kings != recs[i].Kings || r.Side != recs[i].Side {
			t.Fatalf("record %d does not round-trip: %+v, %+v", i, recs[i], r)
		}
		if moves := pos.LegalMoves(nil); len(moves) > 0 && moves[0].IsCapture() {
			t.Fatalf("record %d (%s): the side to move must capture", i, pos.FEN())
		}
	}
	if _, err := ReadChunk(ChunkPath(dir, 0), rules.Russian); err == nil {
		t.Fatal("an International chunk read as Russian")
	}

	ck := filepath.Join(t.TempDir(), "ck.gob")
	fo := FitOptions{Variant: v, Dirs: []string{dir}, Checkpoint: ck, Epochs: 2, Seed: 1, Rate: 2, L2: 1e-4, Lambda: 1}
	_, rep, err := Fit(context.Background(), fo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Held == 0 || rep.Train < 5*rep.Held || len(rep.Loss) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if l := rep.Loss[1]; !(l < math.Ln2) {
		t.Fatalf("held-out loss %.4f, no better than a coin (%.4f)", l, math.Ln2)
	}
	// Games of a fixed-depth engine repeat: some held-out positions are
	// training positions too, and the rest are counted as unseen.
	if rep.Unseen == 0 || rep.Unseen >= rep.Held || len(rep.UnseenLoss) != 2 || rep.UnseenSearchLoss == 0 {
		t.Fatalf("%d of %d held-out positions unseen, losses %v", rep.Unseen, rep.Held, rep.UnseenLoss)
	}
	// The same chunks again, turned by one (the held-out chunk first, a
	// training chunk last where the second directory's tenth is held
	// out): every held-out position is then a training position as well.
	rot := t.TempDir()
	for i := 0; i < 10; i++ {
		b, err := os.ReadFile(ChunkPath(dir, (i+9)%10))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ChunkPath(rot, i), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fr := fo
	fr.Dirs, fr.Checkpoint, fr.Epochs = []string{dir, rot}, filepath.Join(t.TempDir(), "ck.gob"), 1
	if _, rr, err := Fit(context.Background(), fr, nil); err != nil || rr.Unseen != 0 || rr.Held <= rep.Held {
		t.Fatalf("fit of the chunks twice: %v, %+v; want more held-out positions than %d, none unseen", err, rr, rep.Held)
	}
	fo.Epochs = 3
	data, rep2, err := Fit(context.Background(), fo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.ResumedEpoch != 2 || len(rep2.Loss) != 3 || rep2.Loss[1] != rep.Loss[1] {
		t.Fatalf("resumed at epoch %d with losses %v, want 2 and %v first", rep2.ResumedEpoch, rep2.Loss, rep.Loss)
	}
	ev, err := search.NewLearnedEvaluation(v, data)
	if err != nil {
		t.Fatal(err)
	}
	start := v.StartPosition()
	if e := ev.Evaluate(&start); e != 0 {
		t.Fatalf("start position evaluates to %d", e)
	}
	// The integer evaluation is the float one, rounded.
	checkRounded(t, v, recs, ck, ev, search.SmallPatterns(v))
	// The large patterns too: a fit with them writes a file whose
	// evaluation is its float weights', large blocks and all.
	fl := fo
	fl.LargePatterns, fl.Checkpoint, fl.Epochs = true, filepath.Join(t.TempDir(), "ck.gob"), 2
	large, repl, err := Fit(context.Background(), fl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(large)-len(data) < 4*(search.LearnedSize(v)-search.SmallPatterns(v)) || repl.Train != rep.Train {
		t.Fatalf("the fit with the large patterns wrote %d bytes (the small blocks' %d) from %d positions (%d)", len(large), len(data), repl.Train, rep.Train)
	}
	evl, err := search.NewLearnedEvaluation(v, large)
	if err != nil {
		t.Fatal(err)
	}
	checkRounded(t, v, recs, fl.Checkpoint, evl, search.LearnedSize(v))
	p, err := rules.ParseFEN(v, "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19")
	if err != nil {
		t.Fatal(err)
	}
	if e := ev.Evaluate(&p); e < 50 {
		t.Fatalf("a man up at the start evaluates to %d", e)
	}
}

// TestTinyTraining8x8: the recipe serves the 8x8 variants too: Russian
// and Brazilian (flying kings, men that capture backwards) and English
// (short kings, men that capture forwards only, Black moving first). A
// few hundred games at depth 2 fit weights that beat a coin on the
// held-out games, as the variant's hand-set evaluation does (English at
// depth 3 over 100 plies: at depth 2 nearly all its games are drawn); the
// weights file loads as the variant's only, evaluates the start position
// as even and a man more as a gain.
func TestTinyTraining8x8(t *testing.T) {
	for _, v := range []*rules.Variant{rules.Russian, rules.Brazilian, rules.English} {
		t.Run(v.Name, func(t *testing.T) {
			if n := search.LearnedSize(v); n != 15*6561 {
				t.Fatalf("%d pattern weights, want 15 blocks of 6561", n)
			}
			dir := t.TempDir()
			o := GenOptions{Variant: v, Dir: dir, Games: 200, ChunkGames: 20, Seed: 3, Depth: 2, RandomPlies: 6, MaxPlies: 150}
			if v == rules.English {
				o.Depth, o.Games, o.MaxPlies = 3, 300, 100
			}
			if err := Generate(context.Background(), o, nil); err != nil {
				t.Fatal(err)
			}
			recs, err := ReadAll(dir, v)
			if err != nil {
				t.Fatal(err)
			}
			results := map[uint8]int{}
			kings := 0
			for i := range recs {
				results[recs[i].Result]++
				if recs[i].Kings != [2]uint64{} {
					kings++
				}
				if pos := recs[i].Position(v); pos.FEN() == "" {
					t.Fatalf("record %d: no position", i)
				}
			}
			if len(results) < 2 || kings == 0 {
				t.Fatalf("chunk 0: results %v, %d positions with kings: want decided games and kings", results, kings)
			}
			fo := FitOptions{Variant: v, Dirs: []string{dir}, Checkpoint: filepath.Join(t.TempDir(), "ck.gob"),
				Epochs: 2, Seed: 1, Rate: 2, L2: 1e-4, Lambda: 1}
			data, rep, err := Fit(context.Background(), fo, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Held == 0 || rep.Train < 5*rep.Held {
				t.Fatalf("report %+v", rep)
			}
			if l := rep.Loss[1]; !(l < math.Ln2) || !(rep.HandSetLoss < math.Ln2) || !(rep.EngineLoss < math.Ln2) {
				t.Fatalf("held-out loss %.4f, hand-set %.4f, this build's %.4f: not all better than a coin (%.4f)",
					l, rep.HandSetLoss, rep.EngineLoss, math.Ln2)
			}
			if _, learned := search.Learned(v); learned == (rep.EngineLoss == rep.HandSetLoss) {
				t.Fatalf("this build's evaluation (learned: %v) has loss %.6f, the hand-set one %.6f", learned, rep.EngineLoss, rep.HandSetLoss)
			}
			ev, err := search.NewLearnedEvaluation(v, data)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := search.NewLearnedEvaluation(rules.International, data); err == nil {
				t.Fatalf("%s weights loaded as International's", v.Name)
			}
			start := v.StartPosition()
			if e := ev.Evaluate(&start); e != 0 {
				t.Fatalf("start position evaluates to %d", e)
			}
			// The start position without one of the opponent's men.
			p := v.StartPosition()
			opp := rules.BlackMan
			if p.SideToMove() == rules.Black {
				opp = rules.WhiteMan
			}
			for s := 1; s <= v.Board.Squares(); s++ {
				if p.Piece(s) == opp {
					p.SetPiece(s, rules.Empty)
					break
				}
			}
			if e := ev.Evaluate(&p); e < 30 {
				t.Fatalf("%s: a man up at the start evaluates to %d", p.FEN(), e)
			}
		})
	}
}

// checkRounded checks that the weights file's evaluation ev of the records'
// positions is, to the rounding, the fit's float weights' in checkpoint
// ck, with size pattern weights.
func checkRounded(t *testing.T, v *rules.Variant, recs []Record, ck string, ev *search.Evaluation, size int) {
	t.Helper()
	var cp checkpoint
	f, err := os.Open(ck)
	if err != nil {
		t.Fatal(err)
	}
	if err := gob.NewDecoder(f).Decode(&cp); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var s samples
	var buf search.Sample
	for i := range recs {
		s.add(&recs[i], v, &buf, size)
	}
	worst := 0.0
	for i := 0; i < s.len(); i++ {
		want := evalSample(&s, i, &cp.W)
		pos := recs[i].Position(v)
		got := float64(ev.Evaluate(&pos))
		if recs[i].Side == rules.Black {
			got = -got
		}
		worst = max(worst, math.Abs(got-want))
	}
	if worst > 3 {
		t.Fatalf("the weights file evaluates up to %.1f away from the fitted weights", worst)
	}
}
