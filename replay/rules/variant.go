package rules

import (
	"fmt"
	"slices"
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

// CapturePrecedence refines MajorityCapture: what decides between legal
// captures beyond their number of pieces.
type CapturePrecedence uint8

const (
	// PrecedenceCount: the number of pieces alone (a king counts as one).
	PrecedenceCount CapturePrecedence = iota
	// PrecedenceKings: the most pieces, then the most kings (Spanish).
	PrecedenceKings
	// PrecedenceItalian: the most pieces, then capturing with a king, then
	// the most kings, then the capture that meets a king earliest
	// (Italian, FID rules 6.6-6.9).
	PrecedenceItalian
	// PrecedenceValue: the highest value, a king counting as almost two
	// men (two men outweigh one king, a king outweighs one man, and equal
	// totals prefer fewer kings), then capturing with a king (Frisian).
	PrecedenceValue
)

// WinCondition says how a game is won.
type WinCondition uint8

const (
	// LoseWhenNoMove: a side to move without a legal move loses (every
	// classic variant).
	LoseWhenNoMove WinCondition = iota
	// WinWhenNoMove: a side to move without a legal move (no pieces left or
	// all blocked) wins (antidraughts).
	WinWhenNoMove
	// FirstKingWins: the first side to make a king wins; a side without a
	// legal move loses (breakthrough).
	FirstKingWins
)

// Variant describes one game as data. The move generators read only these
// traits (and the board), packed at package init (setup), so a variant
// that differs only in traits (Pool, Czech, Killer, ...) is a new table
// entry; Thai's and Frisian's capture rules are rendered as their own
// generators from the same template, and Turkish's board has a generator of
// its own (see doc.go).
type Variant struct {
	Name     string // as in perft.json and the CLI: "russian", "international", ...
	GameType int    // PDN GameType number; 0 for a variant PDN has no number for (Killer)

	// Identity: every other name and number the variant goes by, here so
	// that the CLI, the PDN reader, the Hub protocol and the SQL table
	// (draughtsdb_variants, checked against these) agree.

	// Aliases are the other names a user may give it (lower case):
	// VariantByName, --variant, the Hub "variant" parameter and the SQL
	// function draughtsdb_variant_id read them.
	Aliases []string
	// TagNames are further spellings of the Variant tag that online sites
	// write (lower case), read by VariantByTag only: PlayStrategy writes
	// "American/English", "International", "BRKTHRU", "Frysk!" and
	// "Spanish" (its key "portuguese"), lidraughts "Standard".
	TagNames []string
	// OtherGameTypes are GameType numbers other than GameType that real
	// files give the variant: Portuguese (28) is the Spanish game, and
	// lidraughts writes 99 ("From Position") for International from a
	// set-up position. VariantByGameType reads them; GameType is the one
	// written and stored.
	OtherGameTypes []int
	// HubNames are the values Scan (3.x, the reference Hub engine) gives
	// its "variant" parameter for the variant, where they differ from
	// Name: "normal" is International, "bt" Breakthrough, "losing"
	// Antidraughts. Hub GUIs written for Scan send them.
	HubNames []string

	Board *Board
	// FirstToMove is the side to move in the initial position.
	FirstToMove Color
	// InitialRows is the number of rows of men each side starts with.
	InitialRows int
	// MenCaptureBackward: men may capture backwards (they always move forwards).
	MenCaptureBackward bool
	// MenCannotCaptureKings: a man may not jump a king (Italian).
	MenCannotCaptureKings bool
	// FlyingKings: kings move and capture any distance along their lines
	// (diagonals; for Frisian's captures also rows and columns; ranks and
	// files on Turkish's board).
	FlyingKings bool
	// MajorityCapture: a capture must take the most pieces (a king counts as
	// one), refined by Precedence; otherwise the player has free choice
	// among captures.
	MajorityCapture bool
	// Precedence refines MajorityCapture (PrecedenceCount: none).
	Precedence CapturePrecedence
	// KingPrecedence: when a king can capture, a capture with a king must be
	// made (Czech); the men's captures are then not legal.
	KingPrecedence bool
	// KingHaltsBehindKing: a flying king whose capture ends by jumping a
	// king must land on the square directly behind it (Killer). Where the
	// chain can go on, it goes on as usual.
	KingHaltsBehindKing bool
	// CapturesRemovedAtOnce: a jumped piece leaves the board at once, so a
	// king may cross its square again and turn back (Thai). Otherwise
	// jumped pieces stay until the move ends and block.
	CapturesRemovedAtOnce bool
	// KingLandsBehind: a flying king lands on the square directly behind
	// the piece it jumps (Thai).
	KingLandsBehind bool
	// OrthogonalCaptures: men and kings also capture along ranks and files,
	// over the next dark square in a row or column (Frisian). Moves stay
	// diagonal.
	OrthogonalCaptures bool
	Promotion          PromotionInCapture
	// DefaultNotation is how the variant's community writes moves.
	DefaultNotation Notation
	// AlgebraicFromBlack: algebraic squares are named from Black's side of
	// our diagrams (English). Our diagrams put White at the bottom (a1 is
	// square 29 on 8x8); English checkers sites that write algebraic moves
	// (playstrategy, lidraughts) put Black, who moves first, at the bottom,
	// so their square s is our square N+1-s (their c3, 22, is our 11).
	// SquareName and FormatMove write them so, replay reads them so.
	AlgebraicFromBlack bool
	// DrawKingPlies is the number of consecutive plies of king moves without
	// capture (and, for Russian, without a man move) after which the game
	// is drawn; 0 means the variant has no such rule here. See state.go.
	DrawKingPlies int
	// KingMoveLimit: a side that has both kings and men may not move the
	// same king more than this many times in a row without capturing
	// (Frisian: 3); 0 for none. It needs the game's history, so LegalMoves
	// and Perft ignore it; see KingMoveCounter.
	KingMoveLimit int
	// Win is how the game is won; see Position.Outcome.
	Win WinCondition
	// StartFEN is the initial position when the men do not simply fill
	// InitialRows from each side's back row (Turkish leaves the back rows
	// empty); "" otherwise.
	StartFEN string

	// Derived at package init from the traits above (see setup): a copy
	// of a Variant with other traits keeps its original's generator,
	// packed traits and hash key, so variants are made in this package.
	gen     uint8    // the generated move generator (movegenEight, ...)
	gr      genRules // the traits a capture search reads, packed
	special uint8    // spMenNoKings | spKingPrec | spKingsRank: 0 for the classics
	hashKey uint64   // XORed into every hash; 0 for the five original variants
}

// genRules are the traits a capture search reads, packed in 8 bytes so
// that it copies them with one load and one store (doc.go: performance).
type genRules struct {
	majority bool // MajorityCapture
	ranked   bool // MajorityCapture ranked by Precedence, not the count alone
	ordered  bool // PrecedenceItalian: track where kings were jumped
	killer   bool // KingHaltsBehindKing
	menBack  bool // MenCaptureBackward
	flying   bool // FlyingKings
	promo    PromotionInCapture
	prec     CapturePrecedence
}

// Variant.special bits: the rare rules the generators check per position,
// tested with one byte load.
const (
	spMenNoKings = 1 << iota // MenCannotCaptureKings
	spKingPrec               // KingPrecedence
	spKingsRank              // single jumps are not equal when kings can be taken
)

// The variants implemented.
var (
	Russian = &Variant{Name: "russian", GameType: 25, Board: Board8x8, FirstToMove: White, InitialRows: 3,
		MenCaptureBackward: true, FlyingKings: true, Promotion: PromoteAndContinue,
		DefaultNotation: Algebraic, DrawKingPlies: 30}
	International = &Variant{Name: "international", GameType: 20,
		Aliases: []string{"standard"}, TagNames: []string{"international draughts"}, OtherGameTypes: []int{99}, HubNames: []string{"normal"},
		Board: Board10x10, FirstToMove: White, InitialRows: 4,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric, DrawKingPlies: 50}
	Brazilian = &Variant{Name: "brazilian", GameType: 26, Board: Board8x8, FirstToMove: White, InitialRows: 3,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Algebraic}
	Canadian = &Variant{Name: "canadian", GameType: 27, Board: Board12x12, FirstToMove: White, InitialRows: 5,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric}
	English = &Variant{Name: "english", GameType: 21,
		Aliases: []string{"american", "checkers"}, TagNames: []string{"american/english", "american checkers", "english draughts"},
		Board: Board8x8, FirstToMove: Black, InitialRows: 3,
		MenCaptureBackward: false, FlyingKings: false, Promotion: PromoteEndsMove,
		DefaultNotation: Numeric, AlgebraicFromBlack: true}
	// Pool is American pool checkers (APCA rules): Black moves first, men
	// capture backwards, flying kings, free choice of capture, and a man
	// that reaches the far row in a capture goes on capturing as a man if
	// it can and is crowned only if the move ends there.
	Pool = &Variant{Name: "pool", GameType: 23, Aliases: []string{"american pool", "pool checkers"}, Board: Board8x8, FirstToMove: Black, InitialRows: 3,
		MenCaptureBackward: true, FlyingKings: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric}
	// Czech (Czech draughts federation rules): men move and capture
	// forwards only, flying kings, free choice of capture except that when
	// a king can capture, a capture with a king must be made.
	Czech = &Variant{Name: "czech", GameType: 29, Board: Board8x8, FirstToMove: White, InitialRows: 3,
		FlyingKings: true, KingPrecedence: true, Promotion: PromoteAtEnd,
		DefaultNotation: Algebraic}
	// Spanish (FEDA rules; Portuguese is the same game): the mirrored
	// board numbered from White's bottom-right corner, men move and
	// capture forwards only, flying kings, the most pieces must be taken
	// and then the most kings.
	Spanish = &Variant{Name: "spanish", GameType: 24, TagNames: []string{"portuguese"}, OtherGameTypes: []int{28}, Board: Board8x8MirroredReversed, FirstToMove: White, InitialRows: 3,
		FlyingKings: true, MajorityCapture: true, Precedence: PrecedenceKings, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric}
	// Italian (FID technical rules, art. 2-6): the mirrored board numbered
	// from the top left, men move and capture forwards only and may not
	// capture kings, kings move one step, the most pieces must be taken,
	// then with a king, then the most kings, then the capture that meets a
	// king first.
	Italian = &Variant{Name: "italian", GameType: 22, Board: Board8x8Mirrored, FirstToMove: White, InitialRows: 3,
		MenCannotCaptureKings: true, MajorityCapture: true, Precedence: PrecedenceItalian, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric}
	// Thai: two rows of men, Black first, men move and capture forwards
	// only, flying kings that land directly behind the piece they jump,
	// jumped pieces leave the board at once, free choice of capture.
	Thai = &Variant{Name: "thai", GameType: 31, Board: Board8x8Reversed, FirstToMove: Black, InitialRows: 2,
		FlyingKings: true, CapturesRemovedAtOnce: true, KingLandsBehind: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric}
	// Killer is International with the killer rule (mindsports.nl): a king
	// whose capture ends by jumping a king stops directly behind it. PDN
	// has no GameType for it.
	Killer = &Variant{Name: "killer", Board: Board10x10, FirstToMove: White, InitialRows: 4,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		KingHaltsBehindKing: true, DefaultNotation: Numeric}
	// Antidraughts (lidraughts, GameType 98): International moves; a side
	// that cannot move (no pieces left or all blocked) wins.
	Antidraughts = &Variant{Name: "antidraughts", GameType: 98, HubNames: []string{"losing"}, Board: Board10x10, FirstToMove: White, InitialRows: 4,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric, Win: WinWhenNoMove}
	// Breakthrough (lidraughts, GameType 96): International moves; the
	// first side to make a king wins.
	Breakthrough = &Variant{Name: "breakthrough", GameType: 96, TagNames: []string{"brkthru"}, HubNames: []string{"bt"}, Board: Board10x10, FirstToMove: White, InitialRows: 4,
		MenCaptureBackward: true, FlyingKings: true, MajorityCapture: true, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric, Win: FirstKingWins}
	// Frisian (KNDB/FRL rules as dctl's frisian.hpp): men and kings also
	// capture along rows and columns, flying kings (moving diagonally),
	// men capture backwards, the capture of the highest value must be
	// made (a king counts almost two men), then with a king.
	Frisian = &Variant{Name: "frisian", GameType: 40, Board: Board10x10, FirstToMove: White, InitialRows: 4,
		MenCaptureBackward: true, FlyingKings: true, OrthogonalCaptures: true,
		MajorityCapture: true, Precedence: PrecedenceValue, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric, KingMoveLimit: 3}
	// Frysk (lidraughts' Frysk!, GameType 97): Frisian from five men each
	// on the back row.
	Frysk = &Variant{Name: "frysk", GameType: 97, Aliases: []string{"frysk!"}, Board: Board10x10, FirstToMove: White, InitialRows: 1,
		MenCaptureBackward: true, FlyingKings: true, OrthogonalCaptures: true,
		MajorityCapture: true, Precedence: PrecedenceValue, Promotion: PromoteAtEnd,
		DefaultNotation: Numeric, KingMoveLimit: 3}
	// Turkish (Dama; FMJD and Turkish federation rules as kish's RULES.md):
	// all 64 squares, men on the second and third rows, moves and captures
	// along ranks and files, men forwards and sideways, flying kings,
	// jumped pieces removed at once, no turning straight back, the most
	// pieces must be taken.
	Turkish = &Variant{Name: "turkish", GameType: 30, Board: Board8x8Turkish, FirstToMove: White, InitialRows: 2,
		FlyingKings: true, MajorityCapture: true, CapturesRemovedAtOnce: true, Promotion: PromoteAtEnd,
		DefaultNotation: Algebraic, StartFEN: "W:W41-56:B9-24"}
)

// Default is the variant of a game or command that names none: Russian,
// the seeds' default. Every default in draughtsdb (the import's inference,
// the commands' --variant, the explorer) is this one.
var Default = Russian

var variants = []*Variant{Russian, International, Brazilian, Canadian, English, Pool, Czech, Spanish, Italian, Thai,
	Killer, Antidraughts, Breakthrough, Frisian, Frysk, Turkish}

func init() {
	for _, v := range variants {
		v.setup()
	}
}

// setup derives the generator, the packed traits and the hash key.
func (v *Variant) setup() {
	ranked := v.MajorityCapture && v.Precedence != PrecedenceCount
	v.gr = genRules{majority: v.MajorityCapture, ranked: ranked,
		ordered: v.Precedence == PrecedenceItalian, killer: v.KingHaltsBehindKing,
		menBack: v.MenCaptureBackward, flying: v.FlyingKings, promo: v.Promotion, prec: v.Precedence}
	v.special = 0
	if v.MenCannotCaptureKings {
		v.special |= spMenNoKings
	}
	if v.KingPrecedence {
		v.special |= spKingPrec
	}
	if v.MajorityCapture && (v.Precedence == PrecedenceKings || v.Precedence == PrecedenceValue) {
		v.special |= spKingsRank
	}
	v.gen = v.Board.gen
	switch {
	case v.Board.AllSquares:
		// Turkish: the board's own generator (turkish.go) has its rules.
	case v.CapturesRemovedAtOnce || v.KingLandsBehind:
		if !(v.CapturesRemovedAtOnce && v.KingLandsBehind && v.Board.gen == movegenEight) {
			panic("rules: " + v.Name + ": Thai captures are rendered for 8x8 only, and both together")
		}
		v.gen = movegenEightThai
	case v.OrthogonalCaptures:
		if v.Board.gen != movegenTen {
			panic("rules: " + v.Name + ": orthogonal captures are rendered for 10x10 only")
		}
		v.gen = movegenTenFrisian
	}
	if v != Russian && v != International && v != Brazilian && v != Canadian && v != English {
		v.hashKey = variantHashKey(v.Name)
	}
}

// Variants returns all implemented variants, Default (Russian) first.
func Variants() []*Variant { return append([]*Variant(nil), variants...) }

// VariantByName finds a variant by its name or one of its Aliases, in any
// case and with surrounding spaces: "american" and "checkers" are English,
// "standard" International, "frysk!" Frysk, "american pool" Pool.
func VariantByName(name string) (*Variant, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, v := range variants {
		if v.Name == n || slices.Contains(v.Aliases, n) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownVariant, name)
}

// VariantByTag reads the value of a PDN Variant tag: a name VariantByName
// reads, or one of the variant's TagNames ("American/English", "BRKTHRU",
// "Portuguese").
func VariantByTag(value string) (*Variant, error) {
	if v, err := VariantByName(value); err == nil {
		return v, nil
	}
	n := strings.ToLower(strings.TrimSpace(value))
	for _, v := range variants {
		if slices.Contains(v.TagNames, n) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: Variant tag %q", ErrUnknownVariant, value)
}

// VariantByGameType finds a variant by a PDN GameType number: its
// GameType or one of its OtherGameTypes.
func VariantByGameType(gt int) (*Variant, error) {
	for _, v := range variants {
		if gt != 0 && (v.GameType == gt || slices.Contains(v.OtherGameTypes, gt)) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: GameType %d", ErrUnknownVariant, gt)
}

func (v *Variant) String() string { return v.Name }
