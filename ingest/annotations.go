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
	cleanAnnotations(a, c)
	return codec.AppendAnnotations(nil, a), warnings
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
