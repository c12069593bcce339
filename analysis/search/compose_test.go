//go:build tools

// The composers of the test positions are tools, not tests: they are built
// only with the "tools" tag and print candidates for a person to review
// and copy into search_test.go. Run them with
//
//	go test -tags tools -run TestComposeShots -v ./analysis/search
//	DRAUGHTSDB_COMPOSE=russian SEED=2 go test -tags tools -run TestComposeWins -v ./analysis/search
//
// DRAUGHTSDB_COMPOSE names the variant (default international) and SEED
// the random seed (an integer).

package search

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// composeSetup returns the variant and the random source of a composer
// run, from DRAUGHTSDB_COMPOSE and SEED.
func composeSetup(t *testing.T, defaultSeed int64) (*rules.Variant, *rand.Rand) {
	name := os.Getenv("DRAUGHTSDB_COMPOSE")
	if name == "" {
		name = rules.International.Name
	}
	v, err := rules.VariantByName(name)
	if err != nil {
		t.Fatal(err)
	}
	seed := defaultSeed
	if s := os.Getenv("SEED"); s != "" {
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("SEED=%q: want an integer", s)
		}
	}
	return v, rand.New(rand.NewSource(seed))
}

// TestComposeShots composed the shot positions of TestShots (the shots
// table in search_test.go): it sets up random quiet positions of men and
// prints those where the exhaustive reference (ref_test.go) finds exactly
// one White move winning at least two men (more than any other move
// gains), that move being a sacrifice, at depth 5 and still alone at depth
// 7, with the smallest depth (1, 3 or 5) at which it is already alone.
func TestComposeShots(t *testing.T) {
	v, rng := composeSetup(t, 7)
	n := v.Board.Squares()
	half := v.Board.Width / 2
	found := 0
	for iter := 0; iter < 400000 && found < 25; iter++ {
		pos := rules.NewPosition(v, rules.White)
		k := 5 + rng.Intn(5)
		if v.Board.Width == 10 {
			k = 7 + rng.Intn(6)
		}
		for c := 0; c < 2; c++ {
			placed := 0
			for placed < k {
				s := 1 + rng.Intn(n)
				if pos.Piece(s) != rules.Empty {
					continue
				}
				if c == 0 && s <= 3*half || c == 1 && s > n-3*half {
					continue
				}
				pc := rules.WhiteMan
				if c == 1 {
					pc = rules.BlackMan
				}
				pos.SetPiece(s, pc)
				placed++
			}
		}
		ms := pos.LegalMoves(nil)
		if len(ms) < 4 || ms[0].IsCapture() {
			continue
		}
		q := pos
		q.SetSideToMove(rules.Black)
		if bm := q.LegalMoves(nil); len(bm) == 0 || bm[0].IsCapture() {
			continue
		}
		base := refMaterial(&pos)
		check := func(d int) int {
			moves, vals, _ := refRootValues(pos, d)
			key := -1
			for i := range moves {
				if vals[i]-base >= 2 {
					if key >= 0 {
						return -2
					}
					key = i
				} else if vals[i]-base > 0 {
					return -2
				}
			}
			if key < 0 || moves[key].IsCapture() {
				return -1
			}
			c := pos
			c.Play(&moves[key])
			if cm := c.LegalMoves(nil); !cm[0].IsCapture() {
				return -1
			}
			return key
		}
		k5 := check(5)
		if k5 < 0 {
			continue
		}
		k3 := check(3)
		minD := 5
		if k3 >= 0 {
			minD = 3
			if check(1) >= 0 {
				minD = 1
			}
		}
		if k7 := check(7); k7 != k5 {
			fmt.Println("d7 disagrees", pos.FEN())
			continue
		}
		moves, vals, nodes := refRootValues(pos, 5)
		r := Search(pos, Options{Depth: minD}, nil)
		fmt.Printf("%s minD=%d key=%s val=%d nodes=%d engine=%s score=%d\n", pos.FEN(), minD,
			rules.FormatMove(pos.Variant(), &moves[k5], rules.Numeric, false), vals[k5]-base, nodes,
			rules.FormatMove(pos.Variant(), &r.Best, rules.Numeric, false), r.Score)
		found++
	}
}
