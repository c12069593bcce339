package replay

import "github.com/draughtsdb/draughtsdb/ingest/pdn"

// WarningKind says what a game warning is about, so that counting
// (validate's warnings by kind) and the import's source inference tell
// warnings apart by their kind, never by their text.
type WarningKind uint8

// The kinds of game warnings. Their String is the name validate --json
// counts them under (warnings_by_kind).
const (
	WarnOther                WarningKind = iota // none of the kinds below
	WarnResultFromToken                         // the result token, not the Result tag, is stored: the final position proves it
	WarnRepeatedTag                             // a tag given twice with different values; the first is kept
	WarnFENSideUnknown                          // FEN side to move "?", read from the first move
	WarnResultCompleted                         // a missing result completed from the final position
	WarnResultContradicts                       // the written result contradicts the final position; it is kept
	WarnResultNotUnderstood                     // the result is not a game result; stored as *
	WarnResultTokenDiffers                      // the reader's: the result token differs from the Result tag
	WarnNoResult                                // the reader's: no result at the end of the game
	WarnMovesWithoutTags                        // the reader's: moves without tags after a game with tags
	WarnDateNotUnderstood                       // the Date tag is not YYYY.MM.DD: stored as far as it goes
	WarnDateRange                               // the Date tag is a range: its first date is stored
	WarnNUL                                     // the reader's: NUL bytes removed from the game's text
	WarnTextBetweenTags                         // the reader's: text between tags, neither tag nor movetext, skipped
	WarnNotPDN                                  // the reader's: text that is not PDN skipped before the game
	WarnVariantByReplay                         // the variant decided by replay (BasisReplay); Warning.Variant names it
	WarnResolvedByRest                          // an ambiguous move resolved by the rest of the game
	WarnResolvedByResult                        // an ambiguous last move resolved by the game's result
	WarnVariantBySource                         // the variant decided by its source (BasisSource); Warning.Variant names it
	WarnSourceVariantRejects                    // the variant of its source rejects the game; Warning.Variant names it
	numWarningKinds
)

var warningKindNames = [numWarningKinds]string{
	WarnOther:                "other",
	WarnResultFromToken:      warnResultFromToken,
	WarnRepeatedTag:          warnRepeatedTag,
	WarnFENSideUnknown:       "FEN side to move unknown",
	WarnResultCompleted:      "result completed from the final position",
	WarnResultContradicts:    "result contradicts the final position",
	WarnResultNotUnderstood:  "result not understood",
	WarnResultTokenDiffers:   "result token differs from the Result tag",
	WarnNoResult:             "no result at the end of the game",
	WarnMovesWithoutTags:     "moves without tags",
	WarnDateNotUnderstood:    "date not understood",
	WarnDateRange:            "date range",
	WarnNUL:                  "NUL byte removed",
	WarnTextBetweenTags:      "text between tags skipped",
	WarnNotPDN:               "text that is not PDN skipped",
	WarnVariantByReplay:      "variant decided by replay",
	WarnResolvedByRest:       warnResolvedByRest,
	WarnResolvedByResult:     warnResolvedByResult,
	WarnVariantBySource:      "variant decided by its source",
	WarnSourceVariantRejects: "the variant of its source rejects it",
}

// String is the kind's name, as validate counts it.
func (k WarningKind) String() string {
	if k < numWarningKinds {
		return warningKindNames[k]
	}
	return warningKindNames[WarnOther]
}

// Warning is a remark that does not reject a game. Text is what is stored
// with the game (games.warnings) and shown; Kind is what code reads.
type Warning struct {
	Kind WarningKind
	Text string
	// Variant is the variant the warning says decided the game's, by name,
	// for WarnVariantByReplay, WarnVariantBySource and
	// WarnSourceVariantRejects; "" otherwise.
	Variant string
}

// String is the warning's text.
func (w Warning) String() string { return w.Text }

// WarningTexts returns the texts of ws, as they are stored.
func WarningTexts(ws []Warning) []string {
	if len(ws) == 0 {
		return nil
	}
	out := make([]string, len(ws))
	for i := range ws {
		out[i] = ws[i].Text
	}
	return out
}

// readerKind is the kind of a PDN reader's warning.
func readerKind(k pdn.WarningKind) WarningKind {
	switch k {
	case pdn.WarnResultDiffers:
		return WarnResultTokenDiffers
	case pdn.WarnNoResult:
		return WarnNoResult
	case pdn.WarnMovesWithoutTags:
		return WarnMovesWithoutTags
	case pdn.WarnNUL:
		return WarnNUL
	case pdn.WarnTextBetweenTags:
		return WarnTextBetweenTags
	case pdn.WarnNotPDN:
		return WarnNotPDN
	}
	return WarnOther
}

// warnResultFromToken starts the warning of a game whose result token,
// not its Result tag, agrees with the final position (and is stored).
const warnResultFromToken = "result taken from the result token"

// warnRepeatedTag starts the warning of a tag given twice (repeatedTags).
const warnRepeatedTag = "tag repeated:"
