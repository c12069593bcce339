package replay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// GameType returns the full PDN GameType of variant v with its moves
// written in notation n: number, start colour, board width and height,
// notation and the corner of square one (A0: algebraic, a1 bottom left;
// N2/N1: numeric, as the variant's standard full form writes it), and
// whether the board is inverted. So a reader that takes the notation from
// GameType (as the PDN 3.0 standard says) reads the moves as written.
func GameType(v *rules.Variant, n rules.Notation) string {
	full := pdn.FullGameType(strconv.Itoa(v.GameType))
	parts := strings.Split(full, ",")
	if len(parts) != 6 {
		// Not a variant with a known full form: build it.
		start := "W"
		if v.FirstToMove == rules.Black {
			start = "B"
		}
		invert := "0"
		if v.Board.Mirrored {
			invert = "1"
		}
		parts = []string{strconv.Itoa(v.GameType), start, strconv.Itoa(v.Board.Width), strconv.Itoa(v.Board.Height), "N2", invert}
	}
	switch {
	case n == rules.Algebraic:
		parts[4] = "A0"
	case parts[4][0] != 'N':
		// Numbering starts at the far row, left, seen from White (N2), as
		// International's standard form.
		parts[4] = "N2"
	}
	return strings.Join(parts, ",")
}

// NormalizedPDN returns g as normalised PDN in notation n (see ToPDN), with
// the variations of the file kept: each is replayed from the position where
// it branches off, written in n with full capture paths, nested ones too.
// A variation with a move that is not legal there (or a setup inside it) is
// left out, with a remark in the returned warnings that names the game, the
// ply and the reason; the main line is never affected. r is only used for
// its move resolution: it may be a Replayer of its own, not the one that
// replayed g.
func (r *Replayer) NormalizedPDN(g *Game, n rules.Notation) (*pdn.Game, []string) {
	return r.withVariations(g, n, false)
}

// AnnotatedPDN is NormalizedPDN that keeps, rather than leaves out, a
// variation with a move that is not legal where it is played: as written
// (its moves' texts as read, nested variations unchecked), marked
// pdn.Variation.Unverified, with a warning that names the game, the ply
// and the reason. The import stores what an author wrote with it: nothing
// is lost, and what could be verified is.
func (r *Replayer) AnnotatedPDN(g *Game, n rules.Notation) (*pdn.Game, []string) {
	return r.withVariations(g, n, true)
}

func (r *Replayer) withVariations(g *Game, n rules.Notation, keep bool) (*pdn.Game, []string) {
	r.keepIllegal = keep
	out := g.ToPDN(n)
	v := g.Variant
	r.board, r.variant, r.track = v.Board, v, nil
	var warnings []string
	r.numberOffset = 0
	if g.Start.SideToMove() != v.FirstToMove {
		r.numberOffset = 1
	}
	pos := g.Start
	setup := 0
	for i := range g.Moves {
		if setup < len(g.Setups) && g.Setups[setup].BeforePly == i+1 {
			pos = g.Setups[setup].Position
			setup++
		}
		if i < len(g.Tokens) {
			src := &g.PDN.Moves[g.Tokens[i]]
			if src.Note != nil && len(src.Note.Variations) > 0 {
				vars := r.variations(v, pos, i+1, src.Note.Variations, n, &warnings, g.PDN.Ordinal)
				if len(vars) > 0 {
					m := &out.Moves[i]
					if m.Note == nil {
						m.Note = &pdn.Note{}
					}
					m.Note.Variations = vars
				}
			}
		}
		pos.Play(&g.Moves[i])
	}
	return out, warnings
}

// variations replays alternatives to ply from pos.
func (r *Replayer) variations(v *rules.Variant, pos rules.Position, ply int, src []pdn.Variation, n rules.Notation, warnings *[]string, game int) []pdn.Variation {
	var out []pdn.Variation
	for k := range src {
		moves, err := r.line(v, pos, ply, src[k].Moves, n, warnings, game)
		if err != nil && r.keepIllegal {
			*warnings = append(*warnings, fmt.Sprintf("game %d: variation %d at ply %d kept as written, not verified: %v", game, k+1, ply, err))
			out = append(out, pdn.Variation{Comments: src[k].Comments, Moves: src[k].Moves, Unverified: true})
			continue
		}
		if err != nil {
			*warnings = append(*warnings, fmt.Sprintf("game %d: variation %d at ply %d left out: %v", game, k+1, ply, err))
			continue
		}
		out = append(out, pdn.Variation{Comments: src[k].Comments, Moves: moves})
	}
	return out
}

// line replays one variation's moves from pos (the position before ply).
func (r *Replayer) line(v *rules.Variant, pos rules.Position, ply int, src []pdn.Move, n rules.Notation, warnings *[]string, game int) ([]pdn.Move, error) {
	var out []pdn.Move
	for j := range src {
		pm := &src[j]
		if pm.Setup() != "" {
			return nil, fmt.Errorf("a position setup inside a variation cannot be verified")
		}
		if pm.Text == "" {
			continue
		}
		if pm.Text == pdn.UnknownMove || !parseMoveText(v.Board, pm.Text, v.AlgebraicFromBlack, &r.mt) {
			return nil, fmt.Errorf("ply %d %q is not a move", ply, quote(pm.Text))
		}
		m, err := r.resolve(&pos, ply, pm.Text)
		if err != nil {
			return nil, err
		}
		mv := pdn.Move{Text: rules.FormatMove(v, &m, n, true), Strength: pm.Strength}
		black := pos.SideToMove() != v.FirstToMove
		if j == 0 || !black {
			mv.Number, mv.Black = int32((ply-1+r.numberOffset)/2+1), black
		}
		if pm.Note != nil {
			if len(pm.Note.Comments) > 0 || len(pm.Note.NAGs) > 0 {
				mv.Note = &pdn.Note{Comments: pm.Note.Comments, NAGs: pm.Note.NAGs}
			}
			if len(pm.Note.Variations) > 0 {
				if vars := r.variations(v, pos, ply, pm.Note.Variations, n, warnings, game); len(vars) > 0 {
					if mv.Note == nil {
						mv.Note = &pdn.Note{}
					}
					mv.Note.Variations = vars
				}
			}
		}
		pos.Play(&m)
		out = append(out, mv)
		ply++
	}
	return out, nil
}

// quote caps a move text for a message.
func quote(s string) string { return pdn.Clip(s, 40) }
