package ingest

import (
	"sync"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// annotators replay the variations of annotated games on the import's
// workers (replay.Replayer.AnnotatedPDN); a Replayer serves one game at a
// time.
var annotators = sync.Pool{New: func() any { return replay.NewReplayer(replay.Options{}) }}

// hasAnnotations reports whether a game as read carries anything an
// author wrote besides tags and moves: comments, strength marks, NAGs or
// variations. A game without them is stored with games.annotations NULL,
// at the cost of this one pass over its moves.
func hasAnnotations(pg *pdn.Game) bool {
	if pg == nil {
		return false
	}
	if len(pg.Comments) > 0 {
		return true
	}
	for i := range pg.Moves {
		m := &pg.Moves[i]
		if m.Strength != "" {
			return true
		}
		if n := m.Note; n != nil && (len(n.NAGs) > 0 || len(n.Comments) > 0 || len(n.Variations) > 0) {
			return true
		}
	}
	return false
}

// gameAnnotations encodes the annotations of a verified game for
// games.annotations (codec.AppendAnnotations), nil when it has none.
// Variations are replayed from where they branch and stored in the
// variant's notation with full capture paths, as normalize writes them;
// one with a move that is not legal is stored as written, marked
// unverified, and the returned warnings say which (game, ply, reason).
// Every text goes through the cleaner, as the game's columns do.
func gameAnnotations(g *replay.Game, c *cleaner) ([]byte, []string) {
	if !hasAnnotations(g.PDN) {
		return nil, nil
	}
	r := annotators.Get().(*replay.Replayer)
	out, warnings := r.AnnotatedPDN(g, g.Variant.DefaultNotation)
	annotators.Put(r)
	a := codec.AnnotationsOf(out)
	dropExportedEvaluations(a)
	cleanAnnotations(a, c)
	return codec.AppendAnnotations(nil, a), warnings
}

// IsExportedEvaluation reports whether a comment is an evaluation exactly
// as draughtsdb's PDN export writes one (pdn.FormatEvalComment of what it
// parses to): an evaluation of the evaluations table written out, which
// the import stores back there (gameEvaluations), not an author's words.
// Evaluation comments in any other form (an engine's or a program's own,
// "[%eval -0.048][%depth 12]") are kept verbatim as comments too.
func IsExportedEvaluation(c string) bool {
	e, ok, err := pdn.ParseEvalComment(c, true)
	return ok && err == nil && pdn.FormatEvalComment(&e, true) == c
}

// dropExportedEvaluations leaves the export's evaluation comments out of
// a's main line (IsExportedEvaluation), so that evaluations stay apart
// from what the author wrote through an export and a re-import.
func dropExportedEvaluations(a *codec.Annotations) {
	keep := func(cs []string) []string {
		n := 0
		for _, c := range cs {
			if !IsExportedEvaluation(c) {
				n++
			}
		}
		if n == len(cs) {
			return cs
		}
		out := make([]string, 0, n)
		for _, c := range cs {
			if !IsExportedEvaluation(c) {
				out = append(out, c)
			}
		}
		return out
	}
	a.Comments = keep(a.Comments)
	plies := a.Plies[:0:0]
	for _, p := range a.Plies {
		if p.Note != nil {
			if cs := keep(p.Note.Comments); len(cs) != len(p.Note.Comments) {
				n := *p.Note
				n.Comments = cs
				p.Note = &n
				if len(n.Comments) == 0 && len(n.NAGs) == 0 && len(n.Variations) == 0 {
					p.Note = nil
				}
			}
		}
		if p.Strength != "" || p.Note != nil {
			plies = append(plies, p)
		}
	}
	a.Plies = plies
}

// cleanAnnotations passes every text of a through the cleaner.
func cleanAnnotations(a *codec.Annotations, c *cleaner) {
	a.Comments = cleanTexts(a.Comments, c)
	for i := range a.Plies {
		p := &a.Plies[i]
		p.Strength = c.text("move strength", p.Strength)
		p.Note = cleanNote(p.Note, c)
	}
}

func cleanTexts(ss []string, c *cleaner) []string {
	var out []string
	for i, s := range ss {
		if t := c.text("comment", s); t != s {
			if out == nil {
				out = append([]string(nil), ss...)
			}
			out[i] = t
		}
	}
	if out == nil {
		return ss
	}
	return out
}

// cleanNote returns n with its texts cleaned: n itself when they are
// clean, else a copy (the game's PDN is shared and read-only).
func cleanNote(n *pdn.Note, c *cleaner) *pdn.Note {
	if n == nil {
		return nil
	}
	cp := *n
	cp.Setup = c.text("setup", n.Setup)
	cp.Comments = cleanTexts(n.Comments, c)
	if len(n.Variations) > 0 {
		cp.Variations = make([]pdn.Variation, len(n.Variations))
		for i := range n.Variations {
			v := n.Variations[i]
			v.Comments = cleanTexts(v.Comments, c)
			moves := make([]pdn.Move, len(v.Moves))
			for j := range v.Moves {
				m := v.Moves[j]
				m.Text = c.text("variation move", m.Text)
				m.Strength = c.text("move strength", m.Strength)
				m.Note = cleanNote(m.Note, c)
				moves[j] = m
			}
			v.Moves = moves
			cp.Variations[i] = v
		}
	}
	return &cp
}
