package replay

import (
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// replacedTags are written from the verified game, not copied.
var replacedTags = map[string]bool{"Result": true, "Date": true, "GameType": true, "FEN": true, "SetUp": true}

// ToPDN returns the normalised game as PDN: the standard tags cleaned (Date
// as YYYY.MM.DD, Result in the variant's form, GameType in full form with
// the notation of the moves written, FEN canonical), every other tag as
// read; each move in notation n with its full capture path, with its
// comments, NAGs and strength. Variations are left out: Replayer.
// NormalizedPDN verifies and keeps them.
func (g *Game) ToPDN(n rules.Notation) *pdn.Game {
	v := g.Variant
	out := &pdn.Game{Comments: g.PDN.Comments, Result: g.Result.Format(v)}
	seen := map[string]bool{}
	for _, t := range g.PDN.Tags {
		switch {
		case seen[t.Name]:
			continue // a repeated tag: the first one counts, as Tag() reads it
		case t.Name == "Date":
			out.Tags = append(out.Tags, pdn.Tag{Name: "Date", Value: g.Date})
		case t.Name == "Result":
			out.Tags = append(out.Tags, pdn.Tag{Name: "Result", Value: g.Result.Format(v)})
		case t.Name == "Variant" && v.GameType == 0:
			// Written below, as the variant of a game without a GameType.
		case !replacedTags[t.Name]:
			out.Tags = append(out.Tags, t)
		}
		seen[t.Name] = true
	}
	if !seen["Result"] {
		out.Tags = append(out.Tags, pdn.Tag{Name: "Result", Value: g.Result.Format(v)})
	}
	if v.GameType == 0 {
		// A variant PDN has no number for (Killer) is named by a Variant
		// tag, which the reader reads; "GameType 0" it would refuse. The
		// game's own tag is kept when it names the variant.
		name := v.Name
		if tv, _, _ := variantTagVariant(g.PDN.Tag("Variant")); tv == v {
			name = g.PDN.Tag("Variant")
		}
		out.Tags = append(out.Tags, pdn.Tag{Name: "Variant", Value: name})
	} else {
		out.Tags = append(out.Tags, pdn.Tag{Name: "GameType", Value: GameType(v, n)})
	}
	if g.StartFEN != "" {
		out.Tags = append(out.Tags, pdn.Tag{Name: "FEN", Value: g.StartFEN})
	}

	side := g.Start.SideToMove()
	number := 1
	setup := 0
	for i := range g.Moves {
		m := pdn.Move{Text: rules.FormatMove(v, &g.Moves[i], n, true)}
		if setup < len(g.Setups) && g.Setups[setup].BeforePly == i+1 {
			p := g.Setups[setup].Position
			m.Note = &pdn.Note{Setup: p.FEN()}
			side = p.SideToMove()
			setup++
		}
		numbered := side == v.FirstToMove || i == 0 || m.Note != nil
		if numbered && i < len(g.Tokens) {
			// The numbers as written (a game from a position, "23...
			// 19-23", or a record whose setups jump): counted from 1 they
			// were lost, and after a setup two moves got one number.
			if w := g.PDN.Moves[g.Tokens[i]].Number; w > 0 {
				number = int(w)
			}
		}
		switch {
		case side == v.FirstToMove:
			m.Number = int32(number)
		case numbered:
			m.Number, m.Black = int32(number), true
		}
		if i < len(g.Tokens) {
			src := &g.PDN.Moves[g.Tokens[i]]
			m.Strength = src.Strength
			if src.Note != nil && (len(src.Note.Comments) > 0 || len(src.Note.NAGs) > 0) {
				if m.Note == nil {
					m.Note = &pdn.Note{}
				}
				m.Note.Comments = src.Note.Comments
				m.Note.NAGs = src.Note.NAGs
			}
		}
		if side != v.FirstToMove {
			number++
		}
		side = side.Opponent()
		out.Moves = append(out.Moves, m)
	}
	return out
}
