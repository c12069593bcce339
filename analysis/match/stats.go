package match

import (
	"fmt"
	"math"
)

// z95 is the standard normal quantile of 0.975: a 95% interval is the
// mean +- z95 standard errors.
const z95 = 1.959963984540054

// Stats is a match's result from one engine's view (engine A's in Run):
// its wins, draws and losses, and what they say about the strength
// difference. See Score, Interval, Elo and EloError for the formulas.
type Stats struct {
	Wins, Draws, Losses int
}

// Add counts one game's points for the engine (1, 0.5 or 0).
func (s *Stats) Add(points float64) {
	switch points {
	case 1:
		s.Wins++
	case 0:
		s.Losses++
	default:
		s.Draws++
	}
}

// Games is the number of games counted.
func (s Stats) Games() int { return s.Wins + s.Draws + s.Losses }

// Points is the engine's total: a win 1, a draw 1/2.
func (s Stats) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Score is the mean points per game, s = (W + D/2) / n; NaN without games.
func (s Stats) Score() float64 {
	n := s.Games()
	if n == 0 {
		return math.NaN()
	}
	return s.Points() / float64(n)
}

// StdErr is the standard error of Score under the trinomial model: each
// game scores 1, 1/2 or 0 with the observed frequencies w, d, l, so one
// game's variance is
//
//	var = w (1-s)^2 + d (1/2-s)^2 + l (0-s)^2
//
// and the mean's standard error is sqrt(var / n). (It is 0 when every
// game had the same result: the interval then has no width, as with any
// normal approximation from a sample without spread.)
func (s Stats) StdErr() float64 {
	n := float64(s.Games())
	if n == 0 {
		return math.NaN()
	}
	mu := s.Score()
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	v := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	return math.Sqrt(v / n)
}

// Interval is the 95% confidence interval of Score, s +- 1.96 StdErr
// (the normal approximation), clipped to [0, 1].
func (s Stats) Interval() (lo, hi float64) {
	mu, se := s.Score(), s.StdErr()
	return math.Max(0, mu-z95*se), math.Min(1, mu+z95*se)
}

// EloOf is the Elo difference that makes score p the expected score under
// the logistic model, p = 1 / (1 + 10^(-D/400)), that is
//
//	D = -400 log10(1/p - 1)
//
// It is -Inf at 0 and +Inf at 1.
func EloOf(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/p-1)
}

// Elo is EloOf(Score): the engine's Elo difference to its opponent.
func (s Stats) Elo() float64 { return EloOf(s.Score()) }

// EloError is the half width of the 95% interval of Elo: the score
// interval's ends carried through EloOf,
//
//	(EloOf(s + 1.96 se) - EloOf(s - 1.96 se)) / 2
//
// as cutechess-cli computes its "Elo difference: X +/- Y" (its elo.cpp,
// with an approximate normal quantile of 1.9572 where this uses
// 1.959964). It is +Inf when an end of the interval reaches 0 or 1 (a
// score of 0 or 1 included): the data bound the difference on one side
// only. EloInterval gives the (asymmetric) interval itself.
func (s Stats) EloError() float64 {
	mu, se := s.Score(), s.StdErr()
	if math.IsNaN(mu) {
		return mu
	}
	if mu-z95*se <= 0 || mu+z95*se >= 1 {
		return math.Inf(1)
	}
	return (EloOf(mu+z95*se) - EloOf(mu-z95*se)) / 2
}

// EloInterval is the 95% interval of the Elo difference: EloOf of the ends
// of Interval.
func (s Stats) EloInterval() (lo, hi float64) {
	a, b := s.Interval()
	return EloOf(a), EloOf(b)
}

// String writes the table line: "+12 =30 -8  score 54.0% [47.9%, 60.1%]
// (50 games)  Elo +27.9 +/- 42.6".
func (s Stats) String() string {
	if s.Games() == 0 {
		return "no games"
	}
	lo, hi := s.Interval()
	return fmt.Sprintf("+%d =%d -%d  score %.1f%% [%.1f%%, %.1f%%] (%d games)  Elo %s +/- %s",
		s.Wins, s.Draws, s.Losses, 100*s.Score(), 100*lo, 100*hi, s.Games(), FormatElo(s.Elo(), true), FormatElo(s.EloError(), false))
}

// FormatElo writes an Elo figure with one decimal, with its sign when
// signed ("+27.9"; an error "42.6"), "inf" for an unbounded one ("+inf",
// "-inf" when signed) and "?" for none.
func FormatElo(e float64, signed bool) string {
	switch {
	case math.IsNaN(e):
		return "?"
	case math.IsInf(e, 0) && !signed:
		return "inf"
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	}
	if e == 0 {
		e = 0 // not "-0.0"
	}
	if signed {
		return fmt.Sprintf("%+.1f", e)
	}
	return fmt.Sprintf("%.1f", e)
}
