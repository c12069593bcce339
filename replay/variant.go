package replay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Basis says how a game's variant was decided; it is recorded with the game.
type Basis string

const (
	BasisForced      Basis = "forced"       // --variant or the configuration
	BasisGameType    Basis = "GameType"     // the GameType tag
	BasisVariantTag  Basis = "Variant tag"  // the Variant tag of online sites
	BasisItalianTags Basis = "Italian tags" // Bianco, Nero or Risultato, the Italian federation's tag names
	BasisFEN         Basis = "FEN"          // the squares in the FEN tag
	BasisMoves       Basis = "notation"     // the squares and notation of the moves
	BasisDefault     Basis = "default"      // nothing told: rules.Default (Russian)
	// BasisReplay: nothing told, the variant the squares suggest rejects
	// a move, and exactly one other variant of the same board size and
	// notation accepts the whole game (see Replayer.Replay).
	BasisReplay Basis = "replay"
	// BasisSource: nothing told, and the game's source reads as this
	// variant: in the source's first games that name no variant, some
	// replay only as it and it accepts every one the variant of their
	// squares accepts (see ReplayAs and ingest's source inference).
	BasisSource Basis = "source"
)

// unplayedGameTypes are the GameType numbers of the PDN standard (wiegerw/pdn
// doc/gametype.rst) whose variants rules does not play, by name: a game
// that gives one is rejected as unsupported, naming the variant, until
// rules has it (and reads the number: Variant.GameType, OtherGameTypes).
var unplayedGameTypes = map[int]string{41: "spantsiretti"}

// unplayedVariants are the variant names a Variant tag may carry that
// rules does not play: such a tag is an unsupported variant, not a tag to
// ignore.
var unplayedVariants = map[string]bool{"spantsiretti": true}

// gameTypeVariant returns the variant of GameType number n, or nil and the
// variant's name ("unknown" for a number nobody defined) when rules does
// not play it.
func gameTypeVariant(n int) (*rules.Variant, string) {
	if v, err := rules.VariantByGameType(n); err == nil {
		return v, v.Name
	}
	if name, ok := unplayedGameTypes[n]; ok {
		return nil, name
	}
	return nil, "unknown"
}

// variantTagVariant reads a Variant tag: the variant it names (its name,
// Aliases or TagNames), or nil and known when it names a variant rules
// does not play yet; neither when the value names no variant ("From
// Position"), so the squares decide.
func variantTagVariant(tag string) (v *rules.Variant, name string, known bool) {
	if v, err := rules.VariantByTag(tag); err == nil {
		return v, v.Name, true
	}
	name = strings.ToLower(strings.TrimSpace(tag))
	return nil, name, unplayedVariants[name]
}

// ResolveVariant decides the variant of g:
//
//  1. forced, when not nil;
//  2. the GameType tag (its number, in either the short or the full form);
//  3. the Variant tag of online sites ("American/English", "Frisian", ...);
//  4. Italian tag names (Bianco, Nero, Risultato): Italian;
//  5. the squares written in the moves and the FEN tag: algebraic moves
//     mean 8x8 site notation (Russian); a square above 50 means 12x12
//     (Canadian), above 32 10x10 (International), else numeric 8x8, which
//     is English (the largest numeric 8x8 community), except that a game
//     opening from squares 31-35 (White's front row on 10x10, as in
//     32-28) is International;
//  6. rules.Default (Russian).
//
// A GameType, Variant tag or Italian tags naming a variant that rules does
// not play yet is ErrUnsupportedVariant, naming the variant. Replay goes
// further for steps 5 and 6: a game that the variant of the squares
// rejects may be another variant of the same board (BasisReplay).
func ResolveVariant(g *pdn.Game, forced *rules.Variant) (*rules.Variant, Basis, error) {
	v, basis, fen, decided, err := variantFromTags(g, forced)
	if decided || err != nil {
		return v, basis, err
	}
	var fromMoves boardHints
	first := true
	for i := range g.Moves {
		if t := g.Moves[i].Text; t != "" && t != pdn.UnknownMove {
			fromMoves.add(t, first)
			first = false
			if fromMoves.algebraic {
				break // decided: Russian
			}
		}
	}
	v, basis = decideFromSquares(fromMoves, fenHints(fen))
	return v, basis, nil
}

// variantFromTags applies steps 1-4 of ResolveVariant. decided is false
// when the squares must decide; fen is then the FEN tag's value.
func variantFromTags(g *pdn.Game, forced *rules.Variant) (v *rules.Variant, basis Basis, fen string, decided bool, err error) {
	if forced != nil {
		return forced, BasisForced, "", true, nil
	}
	// One pass over the tags for everything the decision may need.
	var gameType, variantTag string
	italian := false
	for i := range g.Tags {
		switch t := &g.Tags[i]; t.Name {
		case "GameType":
			if gameType == "" {
				gameType = t.Value
			}
		case "Variant":
			if variantTag == "" {
				variantTag = t.Value
			}
		case "FEN":
			if fen == "" {
				fen = t.Value
			}
		case "Bianco", "Nero", "Risultato":
			italian = italian || strings.TrimSpace(t.Value) != ""
		}
	}
	if gt := strings.TrimSpace(gameType); gt != "" {
		num, _, _ := strings.Cut(gt, ",")
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil {
			return nil, BasisGameType, fen, true, fmt.Errorf("%w: GameType %q is not a number", ErrUnsupportedVariant, quote(gt))
		}
		v, name := gameTypeVariant(n)
		if v == nil {
			return nil, BasisGameType, fen, true, fmt.Errorf("%w: GameType %d (%s)", ErrUnsupportedVariant, n, name)
		}
		return v, BasisGameType, fen, true, nil
	}
	if tag := strings.TrimSpace(variantTag); tag != "" {
		if v, name, known := variantTagVariant(tag); known {
			if v == nil {
				return nil, BasisVariantTag, fen, true, fmt.Errorf("%w: Variant tag %q (%s)", ErrUnsupportedVariant, quote(tag), name)
			}
			return v, BasisVariantTag, fen, true, nil
		}
	}
	if italian {
		return rules.Italian, BasisItalianTags, fen, true, nil
	}
	return nil, "", fen, false, nil
}

// fenHints reads the squares of a FEN tag.
func fenHints(fen string) boardHints {
	var h boardHints
	if fen != "" {
		for i, sq := range fenSquares(fen) {
			h.add(sq, i == 0)
		}
	}
	return h
}

// decideFromSquares applies step 4 (and 5) of ResolveVariant.
func decideFromSquares(fromMoves, fromFEN boardHints) (*rules.Variant, Basis) {
	switch {
	case fromMoves.algebraic:
		// Algebraic squares are the 8x8 site notation: Russian.
		return rules.Russian, BasisMoves
	case fromMoves.any || fromFEN.any:
		basis := BasisMoves
		if fromFEN.maxSq > fromMoves.maxSq || !fromMoves.any {
			basis = BasisFEN
		}
		if fromFEN.algebraic {
			return rules.Russian, basis
		}
		switch maxSq := max(fromMoves.maxSq, fromFEN.maxSq); {
		case maxSq > 50:
			return rules.Canadian, basis
		case maxSq > 32:
			return rules.International, basis
		}
		// Numeric squares up to 32: English, where Black moves first from
		// squares 9-12. A game that opens from 31-35 (White's front row on
		// 10x10, as in 32-28) is International with small square numbers.
		if !fromFEN.any && fromMoves.firstFrom >= 31 {
			return rules.International, BasisMoves
		}
		return rules.English, basis
	}
	return rules.Default, BasisDefault
}

// fenSquares returns the square tokens of a FEN ("W:W31-50,K3:B1" ->
// 31, 50, 3, 1).
func fenSquares(fen string) []string {
	var out []string
	for i, part := range strings.Split(strings.Trim(fen, "\" ."), ":") {
		if i == 0 || part == "" {
			continue
		}
		switch part[0] {
		case 'W', 'B', 'w', 'b':
			part = part[1:]
		default:
			continue // H0, F1 and other suffixes
		}
		for _, sq := range strings.FieldsFunc(part, func(r rune) bool { return r == ',' || r == '-' }) {
			out = append(out, strings.TrimLeft(strings.TrimSpace(sq), "Kk"))
		}
	}
	return out
}

// boardHints are what written squares say about the board.
type boardHints struct {
	any       bool // some square was written
	algebraic bool // some square was algebraic (c3)
	maxSq     int  // the largest numeric square
	firstFrom int  // the first numeric square of the first token
}

// add reads one square token (a move or a FEN square); firstToken marks
// the first move of the game.
func (h *boardHints) add(t string, firstToken bool) {
	{
		n, first := 0, true
		for i := 0; i <= len(t); i++ {
			var c byte
			if i < len(t) {
				c = t[i]
			}
			switch {
			case c >= '0' && c <= '9':
				n = n*10 + int(c-'0')
			case c >= 'a' && c <= 'l' && i+1 < len(t) && (t[i+1] >= '0' && t[i+1] <= '9' || t[i+1] >= 'a' && t[i+1] <= 'l'):
				h.algebraic, h.any = true, true
			default:
				if n > 0 {
					h.any = true
					h.maxSq = max(h.maxSq, n)
					if firstToken && first {
						h.firstFrom = n
					}
					first = false
				}
				n = 0
			}
		}
	}
}

// addParsed records a parsed move text, as add does for its text: the
// squares of numeric texts, or that the text was algebraic.
func (h *boardHints) addParsed(mt *moveText, firstToken bool) {
	h.any = true
	if mt.algebraic {
		h.algebraic = true
		return
	}
	for i, sq := range mt.sq[:mt.n] {
		h.maxSq = max(h.maxSq, sq)
		if firstToken && i == 0 {
			h.firstFrom = sq
		}
	}
}
