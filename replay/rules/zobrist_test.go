package rules

import (
	"math/rand/v2"
	"testing"
)

// TestZobristIncremental plays random games in every variant and checks the
// incremental hash against the from-scratch hash after every ply, and that
// FEN round-trips.
func TestZobristIncremental(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range Variants() {
		for game := 0; game < 200; game++ {
			pos := v.StartPosition()
			var buf []Move
			for ply := 0; ply < 300; ply++ {
				buf = pos.AppendMoves(buf[:0], game%2 == 1)
				if len(buf) == 0 {
					if !pos.IsLost() {
						t.Fatalf("%s: no moves but not lost", v.Name)
					}
					break
				}
				m := buf[rng.IntN(len(buf))]
				pos.Play(&m)
				if h := pos.ComputeHash(); h != pos.Hash() {
					t.Fatalf("%s game %d ply %d: incremental %x != scratch %x (%s)", v.Name, game, ply, pos.Hash(), h, pos.FEN())
				}
				q, err := ParseFEN(v, pos.FEN())
				if err != nil || q != pos {
					t.Fatalf("%s: FEN round trip %s: %v", v.Name, pos.FEN(), err)
				}
				if q, err = ParseFEN(v, pos.FENRanges()); err != nil || q != pos {
					t.Fatalf("%s: FEN ranges round trip %s: %v", v.Name, pos.FENRanges(), err)
				}
			}
		}
	}
}

// TestZobristGolden pins hashes: they are stored in databases. If this test
// fails, the hash function changed — that is a breaking change.
func TestZobristGolden(t *testing.T) {
	golden := []struct {
		v    *Variant
		fen  string
		hash uint64
	}{
		{Russian, "", 0x107169aac2515794},
		{Russian, "B:W18,21-32:B1-12", 0x709d521bcb552999},
		{Russian, "W:WK1,32:BK29,5", 0x4a875d1260d8665b},
		{International, "", 0x1b0d3933ef27b2f8},
		{International, "B:W28,31-50:B1-20", 0x7c69c16288fb457a},
		{International, "W:WK46:B23", 0x5dc326ede95cb92f},
		{Brazilian, "", 0x107169aac2515794},
		{Canadian, "", 0x2eae5afc0bb3d166},
		{Canadian, "W:WK72,40:B1,K30", 0x9ad91cc5f57a5dc4},
		{English, "", 0x2b5196e6996bce1e},
		{English, "W:W21-32:B1-8,10-12,14", 0xc129567b03c87604},
		// The later variants, with their variant keys (pinned when added).
		{Pool, "", 0xd166f8e55e47ad48},
		{Czech, "", 0xa5af33c51f8519da},
		{Spanish, "", 0x90d6394ffac01340},
		{Italian, "", 0xd345881e9718dcb9},
		{Thai, "", 0x1751f1513579250b},
		{Killer, "", 0xd8c9ec9dc81388ef},
		{Antidraughts, "", 0x30fefdb5c1a6d913},
		{Breakthrough, "", 0x8f69d9ebfa7e3795},
		{Frisian, "", 0x255b353ff740b349},
		{Frysk, "", 0x76933ceb1d9bbbc8},
	}
	for _, g := range golden {
		pos := g.v.StartPosition()
		if g.fen != "" {
			var err error
			if pos, err = ParseFEN(g.v, g.fen); err != nil {
				t.Fatal(err)
			}
		}
		if pos.Hash() != g.hash {
			t.Errorf("%s %q: hash %#016x, want %#016x", g.v.Name, g.fen, pos.Hash(), g.hash)
		}
	}
}

// TestZobristVariantKeys checks that the same board in two variants hashes
// differently, except for the original Russian and Brazilian, whose stored
// hashes were made without a variant key.
func TestZobristVariantKeys(t *testing.T) {
	legacy := map[*Variant]bool{Russian: true, International: true, Brazilian: true, Canadian: true, English: true}
	for _, v := range variants {
		if legacy[v] != (v.hashKey == 0) {
			t.Errorf("%s: variant key %#x", v.Name, v.hashKey)
		}
	}
	for i, a := range variants {
		for _, b := range variants[i+1:] {
			if a.Board != b.Board || legacy[a] && legacy[b] {
				continue
			}
			for _, fen := range []string{"W:W", "B:WK1:B5", a.StartPosition().FEN()} {
				pa, err := ParseFEN(a, fen)
				if err != nil {
					t.Fatal(err)
				}
				pb, err := ParseFEN(b, fen)
				if err != nil {
					t.Fatal(err)
				}
				if pa.Hash() == pb.Hash() {
					t.Errorf("%s and %s share the hash %#x of %s", a.Name, b.Name, pa.Hash(), fen)
				}
			}
		}
	}
}
