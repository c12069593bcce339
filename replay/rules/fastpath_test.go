package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// fullCaptures runs the recursive capture search on every piece of the side
// to move, bypassing the single-jump fast path and the count shortcuts.
// Under KingPrecedence it searches the kings first and the men only if no
// king can capture.
func fullCaptures(p *Position, keep bool) []Move {
	if p.v.KingPrecedence {
		if m := fullCapturesOf(p, keep, false, true); len(m) > 0 {
			return m
		}
		return fullCapturesOf(p, keep, true, false)
	}
	return fullCapturesOf(p, keep, true, true)
}

func fullCapturesOf(p *Position, keep, men, kings bool) []Move {
	switch p.v.gen {
	case movegenEight:
		us, them, k, empty := sidesEight(p)
		var mm, km bbEight
		if men {
			mm = us.andNot(k)
		}
		if kings {
			km = us.and(k)
		}
		return capturesEight(p, nil, keep, them, empty, mm, km)
	case movegenTen:
		us, them, k, empty := sidesTen(p)
		var mm, km bbTen
		if men {
			mm = us.andNot(k)
		}
		if kings {
			km = us.and(k)
		}
		return capturesTen(p, nil, keep, them, empty, mm, km)
	case movegenEightThai:
		us, them, k, empty := sidesEightThai(p)
		var mm, km bbEight
		if men {
			mm = us.andNot(k)
		}
		if kings {
			km = us.and(k)
		}
		return capturesEightThai(p, nil, keep, them, empty, mm, km)
	case movegenTenFrisian:
		us, them, k, empty := sidesTenFrisian(p)
		var mm, km bbTen
		if men {
			mm = us.andNot(k)
		}
		if kings {
			km = us.and(k)
		}
		return capturesTenFrisian(p, nil, keep, them, empty, mm, km)
	case movegenTurkish:
		us, _, k, _ := tkSides(p)
		var mm, km uint64
		if men {
			mm = us &^ k
		}
		if kings {
			km = us & k
		}
		return capturesTurkish(p, nil, keep, mm, km)
	}
	us, them, k, empty := sidesTwelve(p)
	var mm, km bbTwelve
	if men {
		mm = us.andNot(k)
	}
	if kings {
		km = us.and(k)
	}
	return capturesTwelve(p, nil, keep, them, empty, mm, km)
}

func playFast(p *Position, m *Move) {
	switch p.v.gen {
	case movegenEight:
		playEight(p, m)
	case movegenTen:
		playTen(p, m)
	case movegenEightThai:
		playEightThai(p, m)
	case movegenTenFrisian:
		playTenFrisian(p, m)
	case movegenTurkish:
		playTurkish(p, m)
	default:
		playTwelve(p, m)
	}
}

// TestFastPathsMatchFullSearch plays random games and checks at every
// position that the generator's shortcuts (single-jump captures, counting
// by population counts, unhashed play) agree with the full search and Play.
func TestFastPathsMatchFullSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	positions, captures := 0, 0
	for _, v := range variants {
		for game := 0; game < 300; game++ {
			p := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				positions++
				for _, keep := range []bool{false, true} {
					moves := p.AppendMoves(nil, keep)
					if n := p.countMoves(nil, keep); n != len(moves) {
						t.Fatalf("%s %s keep=%v: countMoves %d, AppendMoves %d", v.Name, p.FEN(), keep, n, len(moves))
					}
					if len(moves) > 0 && moves[0].IsCapture() {
						captures++
						full := fullCaptures(&p, keep)
						if !slices.Equal(moves, full) {
							t.Fatalf("%s %s keep=%v: fast captures %v, full %v", v.Name, p.FEN(), keep, moves, full)
						}
					} else if full := fullCaptures(&p, keep); len(full) != 0 {
						t.Fatalf("%s %s: captures missed", v.Name, p.FEN())
					}
				}
				moves := p.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				m := &moves[rng.IntN(len(moves))]
				q := p
				playFast(&q, m)
				p.Play(m)
				q.hash = p.hash
				if q != p {
					t.Fatalf("%s: unhashed play differs from Play", v.Name)
				}
			}
		}
	}
	t.Logf("%d positions, %d with captures", positions, captures)
}
