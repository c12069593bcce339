package train

import (
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// FitOptions configure the regression.
type FitOptions struct {
	Variant *rules.Variant
	// Dirs hold the chunks of games (each from `train gen`).
	Dirs []string
	// Checkpoint is the file of the fit's state after every epoch (in the
	// first of Dirs if empty); a fit with the same options resumes from it.
	Checkpoint string
	// Epochs is the number of passes over the training positions.
	Epochs int
	// Seed orders the positions of each epoch.
	Seed uint64
	// Rate is Adagrad's learning rate, in hundredths of a man.
	Rate float64
	// L2 is the weight decay of the pattern weights.
	L2 float64
	// Lambda weighs the game result in the target; the rest is the
	// self-play search's score at the position (through the same
	// logistic). 1: the result alone.
	Lambda float64
	// LargePatterns fits the large blocks' weights too (10x10 boards:
	// 4 x 3^12 more, a weights file of about 9 MB); without it the
	// weights file has the small blocks only, as before they were added.
	LargePatterns bool
	// K is the scale of the logistic, sigmoid(eval/K), in hundredths of a
	// man; 0: fitted to the self-play search scores first, so that the new
	// weights come out in the engine's units (a man about 100).
	K float64
}

// FitReport is what a fit measured.
type FitReport struct {
	Train, Held int // positions
	K           float64
	// Loss: the mean cross-entropy of the held-out positions' results
	// (every tenth chunk) under each model: the learned evaluation after
	// each epoch, the hand-set static evaluation, the engine's own
	// static evaluation (the weights this build embeds: what a candidate
	// is to beat), and the self-play search's scores (depth D of the old
	// engine, static plus search).
	Loss         []float64
	HandSetLoss  float64
	EngineLoss   float64
	SearchLoss   float64
	TrainLoss    []float64
	ResumedEpoch int
	// Unseen counts the held-out positions that no training chunk holds;
	// the Unseen losses are the losses above on them alone (UnseenLoss
	// for the epochs run now, not those before a resumed checkpoint).
	// None when fewer than ten chunks hold out positions of the same
	// games.
	Unseen                              int
	UnseenLoss                          []float64
	UnseenHandSetLoss, UnseenSearchLoss float64
	UnseenEngineLoss                    float64
}

// positionKey identifies a position of a record.
type positionKey struct {
	men, kings [2]uint64
	side       rules.Color
}

func keyOf(r *Record) positionKey { return positionKey{r.Men, r.Kings, r.Side} }

// samples is a set of positions' features, flat.
type samples struct {
	nPat   int // pattern indices per position
	nWhite int
	pat    []int32
	scalar [][search.NumScalars]int32
	phase  []float32 // the middlegame weight, Phase/MaxPhase
	result []float32 // 0, 0.5 or 1 from White's view
	score  []float32 // the search's score from White's view
	hand   []float32 // the hand-set evaluation from White's view
	engine []float32 // the engine's evaluation (search.Evaluate) from White's view
}

func (s *samples) add(r *Record, v *rules.Variant, buf *search.Sample, size int) {
	pos := r.Position(v)
	if !search.Features(&pos, buf) {
		return
	}
	if len(buf.Pattern) > 0 && int(buf.Pattern[buf.NumPatternsWhite-1]) >= size {
		// Drop the large blocks' indices, the last of either view's.
		w, n := 0, 0
		for i, k := range buf.Pattern {
			if int(k) >= size {
				continue
			}
			if i < buf.NumPatternsWhite {
				w++
			}
			buf.Pattern[n] = k
			n++
		}
		buf.Pattern, buf.NumPatternsWhite = buf.Pattern[:n], w
	}
	if s.nPat == 0 {
		s.nPat, s.nWhite = len(buf.Pattern), buf.NumPatternsWhite
	}
	s.pat = append(s.pat, buf.Pattern...)
	s.scalar = append(s.scalar, buf.Scalar)
	s.phase = append(s.phase, float32(buf.Phase)/float32(buf.MaxPhase))
	s.result = append(s.result, float32(r.Result)/2)
	sign := float32(1)
	if r.Side == rules.Black {
		sign = -1
	}
	s.score = append(s.score, sign*float32(r.Score))
	s.hand = append(s.hand, sign*float32(search.EvaluateHandSet(pos)))
	s.engine = append(s.engine, sign*float32(search.Evaluate(pos)))
}

func (s *samples) len() int { return len(s.result) }

type checkpoint struct {
	Epoch     int
	K         float64
	W         search.LearnedWeights
	GP        [][2]float64
	GS        [search.NumScalars][2]float64
	Loss      []float64
	TrainLoss []float64
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func crossEntropy(p, y float64) float64 {
	p = min(max(p, 1e-9), 1-1e-9)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// Fit runs the regression and returns the weights file (EncodeWeights)
// and the report. progress, if not nil, is called with the positions done
// in the current epoch and their total.
func Fit(ctx context.Context, o FitOptions, progress func(epoch, n, total int)) ([]byte, *FitReport, error) {
	v := o.Variant
	size := search.LearnedSize(v)
	if !o.LargePatterns {
		size = search.SmallPatterns(v)
	}
	if size == 0 {
		return nil, nil, fmt.Errorf("%s has no learned evaluation (a board without the search's fast layout)", v.Name)
	}
	if len(o.Dirs) == 0 {
		return nil, nil, fmt.Errorf("no directory of games")
	}
	if o.Checkpoint == "" {
		o.Checkpoint = filepath.Join(o.Dirs[0], "fit-checkpoint.gob")
	}
	var train, held samples
	var buf search.Sample
	// The games of a fixed-depth engine from the same ballot and random
	// plies are the same game, and different ones transpose, so most
	// held-out positions also occur in the training chunks (about three
	// in five in the International data): a fit that learns those
	// positions by heart lowers the held-out loss without evaluating
	// better. The held-out positions that are not training positions
	// (unseen) give a loss of their own.
	seen := map[positionKey]bool{}
	var heldRecs []Record
	chunk := 0
	for _, dir := range o.Dirs {
		files, err := Chunks(dir)
		if err != nil {
			return nil, nil, err
		}
		if len(files) == 0 {
			return nil, nil, fmt.Errorf("%s: no training chunks (games-*.bin): run `draughtsdb train gen` first", dir)
		}
		for _, f := range files {
			recs, err := ReadChunk(f, v)
			if err != nil {
				return nil, nil, err
			}
			if chunk%10 == 9 {
				heldRecs = append(heldRecs, recs...)
			} else {
				for i := range recs {
					train.add(&recs[i], v, &buf, size)
					seen[keyOf(&recs[i])] = true
				}
			}
			chunk++
		}
	}
	var unseen samples
	for i := range heldRecs {
		held.add(&heldRecs[i], v, &buf, size)
		if !seen[keyOf(&heldRecs[i])] {
			unseen.add(&heldRecs[i], v, &buf, size)
		}
	}
	if held.len() == 0 {
		// Fewer than ten chunks: hold out every tenth position instead.
		var t2 samples
		t2.nPat, t2.nWhite = train.nPat, train.nWhite
		held.nPat, held.nWhite = train.nPat, train.nWhite
		for i := 0; i < train.len(); i++ {
			dst := &t2
			if i%10 == 9 {
				dst = &held
			}
			dst.pat = append(dst.pat, train.pat[i*train.nPat:(i+1)*train.nPat]...)
			dst.scalar = append(dst.scalar, train.scalar[i])
			dst.phase = append(dst.phase, train.phase[i])
			dst.result = append(dst.result, train.result[i])
			dst.score = append(dst.score, train.score[i])
			dst.hand = append(dst.hand, train.hand[i])
			dst.engine = append(dst.engine, train.engine[i])
		}
		train = t2
	}
	if train.len() == 0 || held.len() == 0 {
		return nil, nil, fmt.Errorf("too few positions to fit and hold out (%d)", train.len()+held.len())
	}
	rep := &FitReport{Train: train.len(), Held: held.len(), Unseen: unseen.len()}

	var cp checkpoint
	if data, err := os.Open(o.Checkpoint); err == nil {
		err := gob.NewDecoder(data).Decode(&cp)
		data.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", o.Checkpoint, err)
		}
		if len(cp.W.Pattern) != size {
			return nil, nil, fmt.Errorf("%s: a checkpoint of %d weights, want %d (another variant, or a fit with the other --large-patterns?)", o.Checkpoint, len(cp.W.Pattern), size)
		}
		rep.ResumedEpoch = cp.Epoch
	} else {
		cp.K = o.K
		if cp.K <= 0 {
			cp.K = fitK(&train)
		}
		cp.W.Pattern = make([][2]float64, size)
		cp.GP = make([][2]float64, size)
		cp.W.Scalar[0] = [2]float64{100, 100}
		cp.W.Scalar[1] = [2]float64{300, 300}
	}
	K := cp.K
	rep.K = K
	rep.HandSetLoss = lossOf(&held, func(i int) float64 { return float64(held.hand[i]) }, K)
	rep.SearchLoss = lossOf(&held, func(i int) float64 { return float64(held.score[i]) }, K)
	rep.EngineLoss = lossOf(&held, func(i int) float64 { return float64(held.engine[i]) }, K)
	if unseen.len() > 0 {
		rep.UnseenHandSetLoss = lossOf(&unseen, func(i int) float64 { return float64(unseen.hand[i]) }, K)
		rep.UnseenSearchLoss = lossOf(&unseen, func(i int) float64 { return float64(unseen.score[i]) }, K)
		rep.UnseenEngineLoss = lossOf(&unseen, func(i int) float64 { return float64(unseen.engine[i]) }, K)
	}
	w := &cp.W
	eval := func(s *samples, i int) float64 { return evalSample(s, i, w) }

	order := make([]int, train.len())
	for i := range order {
		order[i] = i
	}
	for ep := cp.Epoch; ep < o.Epochs; ep++ {
		rng := rand.New(rand.NewPCG(o.Seed, uint64(ep)))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var tl float64
		for n, i := range order {
			if n&4095 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				if progress != nil {
					progress(ep+1, n, len(order))
				}
			}
			e := eval(&train, i)
			p := sigmoid(e / K)
			y := float64(train.result[i])
			if o.Lambda < 1 {
				y = o.Lambda*y + (1-o.Lambda)*sigmoid(float64(train.score[i])/K)
			}
			tl += crossEntropy(p, y)
			g := (p - y) / K // d loss / d eval
			t := float64(train.phase[i])
			pat := train.pat[i*train.nPat : (i+1)*train.nPat]
			for j, k := range pat {
				sg := g
				if j >= train.nWhite {
					sg = -g
				}
				wk, gk := &w.Pattern[k], &cp.GP[k]
				g0 := sg*t + o.L2*wk[0]
				g1 := sg*(1-t) + o.L2*wk[1]
				gk[0] += g0 * g0
				gk[1] += g1 * g1
				wk[0] -= o.Rate * g0 / (math.Sqrt(gk[0]) + 1e-8)
				wk[1] -= o.Rate * g1 / (math.Sqrt(gk[1]) + 1e-8)
			}
			x := &train.scalar[i]
			for j := range x {
				if x[j] == 0 {
					continue
				}
				g0 := g * float64(x[j]) * t
				g1 := g * float64(x[j]) * (1 - t)
				cp.GS[j][0] += g0 * g0
				cp.GS[j][1] += g1 * g1
				w.Scalar[j][0] -= o.Rate * g0 / (math.Sqrt(cp.GS[j][0]) + 1e-8)
				w.Scalar[j][1] -= o.Rate * g1 / (math.Sqrt(cp.GS[j][1]) + 1e-8)
			}
		}
		cp.Epoch = ep + 1
		cp.TrainLoss = append(cp.TrainLoss, tl/float64(len(order)))
		cp.Loss = append(cp.Loss, lossOf(&held, func(i int) float64 { return eval(&held, i) }, K))
		if unseen.len() > 0 {
			rep.UnseenLoss = append(rep.UnseenLoss, lossOf(&unseen, func(i int) float64 { return eval(&unseen, i) }, K))
		}
		if err := saveCheckpoint(o.Checkpoint, &cp); err != nil {
			return nil, nil, err
		}
	}
	rep.Loss, rep.TrainLoss = cp.Loss, cp.TrainLoss
	data, err := search.EncodeWeights(v, w)
	return data, rep, err
}

func saveCheckpoint(path string, cp *checkpoint) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(cp); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// evalSample is the learned evaluation of sample i from White's view with
// the float weights w (the integer evaluation of package search, before
// rounding).
func evalSample(s *samples, i int, w *search.LearnedWeights) float64 {
	t := float64(s.phase[i])
	var mid, end float64
	pat := s.pat[i*s.nPat : (i+1)*s.nPat]
	for j, k := range pat {
		p := &w.Pattern[k]
		if j < s.nWhite {
			mid += p[0]
			end += p[1]
		} else {
			mid -= p[0]
			end -= p[1]
		}
	}
	x := &s.scalar[i]
	for j := range x {
		mid += float64(x[j]) * w.Scalar[j][0]
		end += float64(x[j]) * w.Scalar[j][1]
	}
	return t*mid + (1-t)*end
}

func lossOf(s *samples, eval func(i int) float64, K float64) float64 {
	var l float64
	for i := 0; i < s.len(); i++ {
		l += crossEntropy(sigmoid(eval(i)/K), float64(s.result[i]))
	}
	return l / float64(s.len())
}

// fitK finds the scale of the logistic under which the self-play search
// scores best predict the results (a golden-section search on log K).
func fitK(s *samples) float64 {
	loss := func(lk float64) float64 {
		K := math.Exp(lk)
		return lossOf(s, func(i int) float64 { return float64(s.score[i]) }, K)
	}
	a, b := math.Log(10), math.Log(5000)
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	for range 40 {
		if loss(c) < loss(d) {
			b = d
		} else {
			a = c
		}
		c, d = b-g*(b-a), a+g*(b-a)
	}
	return math.Exp((a + b) / 2)
}
