package export

import (
	"encoding/json"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// AnnotationsJSON is the JSON form of what the author of a game wrote
// besides its tags and moves (games.annotations, codec.Annotations): the
// games export's annotations column and the explorer's /api/game.
// Evaluations that analyze computed are not in it: they are the
// evaluations and move_annotations tables.
type AnnotationsJSON struct {
	// Comments are those written before the first move.
	Comments []string `json:"comments,omitempty"`
	// Plies are the main-line plies that carry something, in order.
	Plies []PlyNoteJSON `json:"plies,omitempty"`
}

// PlyNoteJSON is what the author attached to one main-line ply.
type PlyNoteJSON struct {
	Ply int `json:"ply"`
	NoteJSON
}

// NoteJSON is a move's strength mark, NAGs, comments and variations.
type NoteJSON struct {
	Strength   string          `json:"strength,omitempty"`
	NAGs       []int           `json:"nags,omitempty"`
	Comments   []string        `json:"comments,omitempty"`
	Variations []VariationJSON `json:"variations,omitempty"`
}

// VariationJSON is one alternative line, replayed from the position
// before the move it belongs to. Verified is false for one kept as written
// because a move in it is not legal there: its moves are the texts as
// written.
type VariationJSON struct {
	Verified bool                `json:"verified"`
	Comments []string            `json:"comments,omitempty"`
	Moves    []VariationMoveJSON `json:"moves"`
}

// VariationMoveJSON is a move of a variation: its number as written
// (Black for "12..."), its text (full capture paths, in the variant's
// notation, when verified), what is attached to it, and, from the
// explorer, the position after it (FEN) and its squares.
type VariationMoveJSON struct {
	Number int32  `json:"number,omitempty"`
	Black  bool   `json:"black,omitempty"`
	Move   string `json:"move"`
	Setup  string `json:"setup,omitempty"`
	NoteJSON
	FEN      string `json:"fen,omitempty"`
	From     int    `json:"from,omitempty"`
	To       int    `json:"to,omitempty"`
	Captured []int  `json:"captured,omitempty"`
}

// Annotations returns a in its JSON form; nil for none.
func Annotations(a *codec.Annotations) *AnnotationsJSON {
	if a.Empty() {
		return nil
	}
	out := &AnnotationsJSON{Comments: a.Comments}
	for i := range a.Plies {
		p := &a.Plies[i]
		out.Plies = append(out.Plies, PlyNoteJSON{Ply: p.Ply, NoteJSON: noteJSON(p.Strength, p.Note)})
	}
	return out
}

func noteJSON(strength string, n *pdn.Note) NoteJSON {
	out := NoteJSON{Strength: strength}
	if n == nil {
		return out
	}
	out.NAGs, out.Comments = n.NAGs, n.Comments
	for i := range n.Variations {
		v := &n.Variations[i]
		vj := VariationJSON{Verified: !v.Unverified, Comments: v.Comments, Moves: make([]VariationMoveJSON, 0, len(v.Moves))}
		for j := range v.Moves {
			m := &v.Moves[j]
			vj.Moves = append(vj.Moves, VariationMoveJSON{Number: m.Number, Black: m.Black, Move: m.Text, Setup: m.Setup(),
				NoteJSON: noteJSON(m.Strength, m.Note)})
		}
		out.Variations = append(out.Variations, vj)
	}
	return out
}

// decodeAnnotations decodes the game's annotations (codec.
// DecodeAnnotations) into r.ann; a value that does not decode is r.err.
func decodeAnnotations(r *gameRec) bool {
	a, err := codec.DecodeAnnotations(r.Annotations, int(r.Plies))
	if err != nil {
		r.err = err
		return false
	}
	r.ann = a
	return true
}

// annotationsValue is the games export's annotations column: the JSON
// form, null for a game without annotations.
func annotationsValue(a *codec.Annotations) Value {
	j := Annotations(a)
	if j == nil {
		return null()
	}
	b, _ := json.Marshal(j)
	return str(string(b))
}
