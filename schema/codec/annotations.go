package codec

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
)

// Annotations is what the author of a game wrote besides its tags and
// moves (games.annotations): the comments before the first move, and per
// main-line ply its strength mark, NAGs, comments and variations. It is
// the reader's model (package pdn): what is decoded here writes back as
// PDN with pdn.Writer unchanged.
type Annotations struct {
	// Comments are those written before the first move.
	Comments []string
	// Plies are the main-line plies that carry something, in ply order.
	Plies []PlyNote
}

// PlyNote is what is attached to one main-line ply.
type PlyNote struct {
	Ply      int    // 1-based
	Strength string // "!", "?!", ... as written; "" for none
	// Note holds the NAGs, comments and variations (Setup is never set on
	// the main line: a stored game has one start position). Nil when the
	// ply has only a strength.
	Note *pdn.Note
}

// Empty reports whether a has nothing to store.
func (a *Annotations) Empty() bool { return a == nil || len(a.Comments) == 0 && len(a.Plies) == 0 }

// The bytes of games.annotations (see AppendAnnotations). Databases hold
// them: they must never change; a new format takes a new version byte.
const (
	annotationsV1 = 1

	// Flags of a note: which of its parts follow, in this order.
	flagStrength   = 1 << 0
	flagNAGs       = 1 << 1
	flagComments   = 1 << 2
	flagVariations = 1 << 3
	flagSetup      = 1 << 4 // variation moves only
	noteFlags      = flagStrength | flagNAGs | flagComments | flagVariations | flagSetup

	// Flags of a variation.
	flagUnverified = 1 << 0
)

// maxAnnotationDepth bounds the nesting of stored variations: the reader's
// own bound (pdn.MaxDepth), so the decoder never recurses deeper than an
// import can have written.
const maxAnnotationDepth = pdn.MaxDepth

// AppendAnnotations appends the compact form of a that games.annotations
// stores, or returns dst unchanged when a is empty (the column is then
// NULL: a game without annotations costs nothing). The format:
//
//	annotations = 0x01, strings (comments before the first move),
//	              uvarint count, count x (uvarint ply delta, note)
//	note        = flags byte, then the parts its flags name, in order:
//	              strength (string), NAGs (uvarint count, uvarint each),
//	              comments (strings), variations (uvarint count, variation
//	              each), setup (string; variation moves only)
//	variation   = flags byte (bit 0: unverified, kept as written),
//	              strings (comments before its first move),
//	              uvarint count, count x move
//	move        = string (text), uvarint (number << 1 | black), note
//	strings     = uvarint count, count x string
//	string      = uvarint length, UTF-8 bytes
//
// A ply delta is the ply minus the previous note's ply (the first from
// 0), so at least 1. A flag is set only when its part is not empty, which
// makes the encoding of an Annotations unique (DecodeAnnotations checks
// it).
func AppendAnnotations(dst []byte, a *Annotations) []byte {
	if a.Empty() {
		return dst
	}
	dst = append(dst, annotationsV1)
	dst = appendStrings(dst, a.Comments)
	dst = binary.AppendUvarint(dst, uint64(len(a.Plies)))
	prev := 0
	for i := range a.Plies {
		p := &a.Plies[i]
		dst = binary.AppendUvarint(dst, uint64(p.Ply-prev))
		prev = p.Ply
		dst = appendNote(dst, p.Strength, p.Note, false)
	}
	return dst
}

func appendNote(dst []byte, strength string, n *pdn.Note, setup bool) []byte {
	var flags byte
	if strength != "" {
		flags |= flagStrength
	}
	if n != nil {
		if len(n.NAGs) > 0 {
			flags |= flagNAGs
		}
		if len(n.Comments) > 0 {
			flags |= flagComments
		}
		if len(n.Variations) > 0 {
			flags |= flagVariations
		}
		if setup && n.Setup != "" {
			flags |= flagSetup
		}
	}
	dst = append(dst, flags)
	if flags&flagStrength != 0 {
		dst = appendString(dst, strength)
	}
	if flags&flagNAGs != 0 {
		dst = binary.AppendUvarint(dst, uint64(len(n.NAGs)))
		for _, g := range n.NAGs {
			dst = binary.AppendUvarint(dst, uint64(g))
		}
	}
	if flags&flagComments != 0 {
		dst = appendStrings(dst, n.Comments)
	}
	if flags&flagVariations != 0 {
		dst = binary.AppendUvarint(dst, uint64(len(n.Variations)))
		for i := range n.Variations {
			v := &n.Variations[i]
			var vf byte
			if v.Unverified {
				vf |= flagUnverified
			}
			dst = append(dst, vf)
			dst = appendStrings(dst, v.Comments)
			dst = binary.AppendUvarint(dst, uint64(len(v.Moves)))
			for j := range v.Moves {
				m := &v.Moves[j]
				dst = appendString(dst, m.Text)
				num := uint64(m.Number) << 1
				if m.Black {
					num |= 1
				}
				dst = binary.AppendUvarint(dst, num)
				dst = appendNote(dst, m.Strength, m.Note, true)
			}
		}
	}
	if flags&flagSetup != 0 {
		dst = appendString(dst, n.Setup)
	}
	return dst
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(ss)))
	for _, s := range ss {
		dst = appendString(dst, s)
	}
	return dst
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// An AnnotationsError is stored annotations that do not decode: bytes cut
// short or not in the format. The import wrote every stored value with
// AppendAnnotations, so it means a damaged row.
type AnnotationsError struct {
	Offset int    // byte offset in the column value
	Reason string // what is wrong there
}

func (e *AnnotationsError) Error() string {
	return fmt.Sprintf("annotations byte %d: %s", e.Offset, e.Reason)
}

// DecodeAnnotations is the inverse of AppendAnnotations; nil or empty b
// (a NULL column) is a game without annotations. plies is the game's ply
// count (games.ply_count): a note on a later ply is an error. Whatever it
// accepts, AppendAnnotations encodes back to b.
func DecodeAnnotations(b []byte, plies int) (*Annotations, error) {
	a := &Annotations{}
	if len(b) == 0 {
		return a, nil
	}
	d := annDecoder{b: b}
	if v := d.byte(); d.err == nil && v != annotationsV1 {
		d.fail(0, fmt.Sprintf("format %d is not one this version reads", v))
	}
	a.Comments = d.strings(false)
	n := d.count(2)
	if d.err == nil {
		a.Plies = make([]PlyNote, 0, n)
	}
	ply := 0
	for k := 0; k < n && d.err == nil; k++ {
		at := d.i
		delta := d.uvarint()
		if d.err == nil && (delta == 0 || delta > uint64(plies-ply)) {
			d.fail(at, fmt.Sprintf("ply delta %d after ply %d of a game of %d plies", delta, ply, plies))
		}
		if d.err != nil {
			break
		}
		ply += int(delta)
		at = d.i
		strength, note := d.note(false, 0)
		if d.err == nil && strength == "" && note == nil {
			d.fail(at, fmt.Sprintf("an empty note for ply %d", ply))
		}
		a.Plies = append(a.Plies, PlyNote{Ply: ply, Strength: strength, Note: note})
	}
	if d.err == nil && len(a.Comments) == 0 && len(a.Plies) == 0 {
		d.fail(0, "no annotations (the column should be NULL)")
	}
	if d.err == nil && d.i != len(b) {
		d.fail(d.i, fmt.Sprintf("%d byte(s) after the end", len(b)-d.i))
	}
	if d.err != nil {
		return &Annotations{}, d.err
	}
	return a, nil
}

type annDecoder struct {
	b   []byte
	i   int
	err *AnnotationsError
}

func (d *annDecoder) fail(at int, reason string) {
	if d.err == nil {
		d.err = &AnnotationsError{Offset: at, Reason: reason}
	}
}

func (d *annDecoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.i >= len(d.b) {
		d.fail(d.i, "cut short")
		return 0
	}
	c := d.b[d.i]
	d.i++
	return c
}

func (d *annDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		d.fail(d.i, "cut short or overlong number")
		return 0
	}
	if n > 1 && d.b[d.i+n-1] == 0 {
		// A non-minimal varint: AppendUvarint never writes one.
		d.fail(d.i, "overlong number")
		return 0
	}
	d.i += n
	return v
}

// count reads a count of items that take at least min bytes each: it can
// be no more than the bytes left allow.
func (d *annDecoder) count(min int) int {
	at := d.i
	v := d.uvarint()
	if d.err == nil && v > uint64((len(d.b)-d.i)/min) {
		d.fail(at, fmt.Sprintf("count %d larger than the %d byte(s) left allow", v, len(d.b)-d.i))
	}
	if d.err != nil {
		return 0
	}
	return int(v)
}

func (d *annDecoder) str() string {
	at := d.i
	n := d.count(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[d.i : d.i+n])
	if !utf8.ValidString(s) {
		d.fail(at, "text is not UTF-8")
		return ""
	}
	d.i += n
	return s
}

// strings reads a list of strings; nonEmpty asks for at least one.
func (d *annDecoder) strings(nonEmpty bool) []string {
	at := d.i
	n := d.count(1)
	if d.err != nil {
		return nil
	}
	if n == 0 {
		if nonEmpty {
			d.fail(at, "an empty list flagged as present")
		}
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, d.str())
	}
	return out
}

// note reads a note; a variation move's (move) may hold a setup. depth is
// the variation depth of what the note belongs to (0: the main line).
func (d *annDecoder) note(move bool, depth int) (string, *pdn.Note) {
	at := d.i
	flags := d.byte()
	allowed := byte(noteFlags)
	if !move {
		allowed &^= flagSetup
	}
	if d.err == nil && flags&^allowed != 0 {
		d.fail(at, fmt.Sprintf("note flags %#x", flags))
	}
	if d.err != nil {
		return "", nil
	}
	var strength string
	if flags&flagStrength != 0 {
		at := d.i
		if strength = d.str(); d.err == nil && strength == "" {
			d.fail(at, "an empty strength flagged as present")
		}
	}
	if flags&^flagStrength == 0 {
		return strength, nil
	}
	n := &pdn.Note{}
	if flags&flagNAGs != 0 {
		at := d.i
		k := d.count(1)
		if d.err == nil && k == 0 {
			d.fail(at, "an empty list flagged as present")
		}
		for j := 0; j < k && d.err == nil; j++ {
			at := d.i
			g := d.uvarint()
			if d.err == nil && g > 1<<31-1 {
				d.fail(at, fmt.Sprintf("NAG %d out of range", g))
			}
			n.NAGs = append(n.NAGs, int(g))
		}
	}
	if flags&flagComments != 0 {
		n.Comments = d.strings(true)
	}
	if flags&flagVariations != 0 {
		at := d.i
		if depth >= maxAnnotationDepth {
			d.fail(at, fmt.Sprintf("variations nested more than %d deep", maxAnnotationDepth))
			return "", nil
		}
		k := d.count(3)
		if d.err == nil && k == 0 {
			d.fail(at, "an empty list flagged as present")
		}
		for j := 0; j < k && d.err == nil; j++ {
			n.Variations = append(n.Variations, d.variation(depth+1))
		}
	}
	if flags&flagSetup != 0 {
		at := d.i
		if n.Setup = d.str(); d.err == nil && n.Setup == "" {
			d.fail(at, "an empty setup flagged as present")
		}
	}
	return strength, n
}

func (d *annDecoder) variation(depth int) pdn.Variation {
	var v pdn.Variation
	at := d.i
	vf := d.byte()
	if d.err == nil && vf&^flagUnverified != 0 {
		d.fail(at, fmt.Sprintf("variation flags %#x", vf))
	}
	v.Unverified = vf&flagUnverified != 0
	v.Comments = d.strings(false)
	k := d.count(3)
	for j := 0; j < k && d.err == nil; j++ {
		var m pdn.Move
		m.Text = d.str()
		at := d.i
		num := d.uvarint()
		if d.err == nil && num>>1 > 1<<31-1 {
			d.fail(at, fmt.Sprintf("move number %d out of range", num>>1))
		}
		m.Number, m.Black = int32(num>>1), num&1 != 0
		m.Strength, m.Note = d.note(true, depth)
		v.Moves = append(v.Moves, m)
	}
	return v
}

// AnnotationsOf takes the annotations of a game laid out as PDN with one
// main-line entry per ply, as replay.Replayer.AnnotatedPDN returns a
// verified game (variations replayed, moves in one notation): the
// comments before the first move and, per ply, the strength, NAGs,
// comments and variations. Setups are not annotations (a stored game has
// one start position) and are left out.
func AnnotationsOf(g *pdn.Game) *Annotations {
	a := &Annotations{Comments: g.Comments}
	for i := range g.Moves {
		m := &g.Moves[i]
		var note *pdn.Note
		if n := m.Note; n != nil && (len(n.NAGs) > 0 || len(n.Comments) > 0 || len(n.Variations) > 0) {
			note = &pdn.Note{NAGs: n.NAGs, Comments: n.Comments, Variations: n.Variations}
		}
		if m.Strength != "" || note != nil {
			a.Plies = append(a.Plies, PlyNote{Ply: i + 1, Strength: m.Strength, Note: note})
		}
	}
	return a
}

// Attach adds a's annotations to moves, the main line of a stored game
// laid out as PDN (moves[i] is ply i+1): after the comments and NAGs
// moves already hold (an export's evaluations). It returns the comments
// before the first move. A note on a ply past the moves (not possible for
// a decoded game) is left out.
func (a *Annotations) Attach(moves []pdn.Move) []string {
	if a == nil {
		return nil
	}
	for i := range a.Plies {
		p := &a.Plies[i]
		if p.Ply < 1 || p.Ply > len(moves) {
			continue
		}
		m := &moves[p.Ply-1]
		m.Strength = p.Strength
		if p.Note == nil {
			continue
		}
		n := &pdn.Note{NAGs: p.Note.NAGs, Comments: p.Note.Comments, Variations: p.Note.Variations}
		if m.Note != nil {
			n.Setup = m.Note.Setup
			n.Comments = append(append([]string(nil), m.Note.Comments...), p.Note.Comments...)
			n.NAGs = append(append([]int(nil), m.Note.NAGs...), p.Note.NAGs...)
		}
		m.Note = n
	}
	return a.Comments
}
