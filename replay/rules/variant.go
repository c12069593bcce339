package rules

import (
	"fmt"
	"strings"
)

// Color is a side. White always sits at the bottom of the diagram (the high
// square numbers); Black at the top (squares 1..). Which of them moves first
// is a property of the variant.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Opponent returns the other colour.
func (c Color) Opponent() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Notation selects how squares are written.
type Notation uint8

const (
	Numeric   Notation = iota // 32-28, 28x19
	Algebraic                 // c3-d4, c3:e5:g7
)

// PromotionInCapture says what happens to a man that reaches the far row
// in the middle of a capture.
type PromotionInCapture uint8

const (
	// PromoteAtEnd: the man only promotes if the move ends on the far row;
	// passing through it, it continues as a man (International family).
	PromoteAtEnd PromotionInCapture = iota
	// PromoteAndContinue: it promotes at once and continues capturing as a
	// king (Russian).
	PromoteAndContinue
	// PromoteEndsMove: it promotes and the move ends there (English).
	PromoteEndsMove
)

// Variant describes one game as data. The move generator reads only these
// traits, so a variant that differs only in traits (Pool, Czech, ...) is a
// new table entry; variants with other precedence rules (Italian, Frisian)
// add a trait and a branch in emit; orthogonal games (Turkish) need a new
// board kind and generator (see doc.go).
type Variant struct {
	Name     string // as in perft.json and the CLI: "russian", "international", ...
	GameType int    // PDN GameType number
	Board    *Board
	// FirstToMove is the side to move in the initial position.
	FirstToMove Color
	// InitialRows is the number of rows of men each side starts with.
	InitialRows int
	// MenCaptureBackward: men may capture backwards (they always move forwards).
	MenCaptureBackward bool
	// FlyingKings: kings move and capture any distance along a diagonal.
	FlyingKings bool
	// MajorityCapture: a capture must take the most pieces (a king counts as
	// one); otherwise the player has free choice among captures.
	MajorityCapture bool
	Promotion       PromotionInCapture
	// DefaultNotation is how the variant's community writes moves.
	DefaultNotation Notation
	// DrawKingPlies is the number of consecutive plies of king moves without
	// capture (and, for Russian, without a man move) after which the game
	// is drawn; 0 means the variant has no such rule here. See state.go.
	DrawKingPlies int
}

// The five variants implemented.
var (
	Russian = &Variant{Name: "russian", GameType: 25, Board: Board8x8, FirstToMove: White, InitialRows: 3,
		MenCaptureBackward: true, FlyingKings: true, Promotion: PromoteAndContinue,
		DefaultNotation: Algebraic, DrawKingPlies: 30}
	International = &Variant{Name: "international", GameType: 20, Board: Board10x10, FirstToMove: White, InitialRows: 4,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric, DrawKingPlies: 50}
	Brazilian = &Variant{Name: "brazilian", GameType: 26, Board: Board8x8, FirstToMove: White, InitialRows: 3,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Algebraic}
	Canadian = &Variant{Name: "canadian", GameType: 27, Board: Board12x12, FirstToMove: White, InitialRows: 5,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric}
	English = &Variant{Name: "english", GameType: 21, Board: Board8x8, FirstToMove: Black, InitialRows: 3,
		MenCaptureBackward: false, FlyingKings: false, Promotion: PromoteEndsMove,
		DefaultNotation: Numeric}
)

var variants = []*Variant{Russian, International, Brazilian, Canadian, English}

// Variants returns all implemented variants, Russian (the default) first.
func Variants() []*Variant { return append([]*Variant(nil), variants...) }

// VariantByName finds a variant by its name (case-insensitive). "american"
// and "checkers" are accepted for English, "standard" for International.
func VariantByName(name string) (*Variant, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "american", "checkers":
		n = "english"
	case "standard":
		n = "international"
	}
	for _, v := range variants {
		if v.Name == n {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownVariant, name)
}

// VariantByGameType finds a variant by its PDN GameType number.
func VariantByGameType(gt int) (*Variant, error) {
	for _, v := range variants {
		if v.GameType == gt {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: GameType %d", ErrUnknownVariant, gt)
}

func (v *Variant) String() string { return v.Name }
