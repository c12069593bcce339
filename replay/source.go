package replay

import (
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// What a source says about the variant of its games that name none.
//
// Replay decides each game alone: a game that names no variant is read as
// the variant of its squares (V0), and only when V0 rejects it as the one
// other variant of its board and notation that accepts it (BasisReplay).
// A game that V0 also accepts stays V0, even when its file is plainly of
// another variant: the Czech federation's files (mrcd*, mrdrcd*) hold 297
// games without tags, 250 of them Czech by replay, and 47 short or quiet
// ones that Russian accepts as well were stored as Russian. The importer
// therefore looks at each source's first games (ingest's source
// inference, ingest/infer.go) and, when the evidence there is clear, reads
// the source's other games that name no variant as that variant, through
// these functions.

// UntoldVariant returns the variant Replay reads pg as when pg carries no
// variant evidence: no forced variant (Options.Variant), no GameType, no
// Variant tag naming a variant, no Italian tags. It is the variant of the
// game's squares (ResolveVariant, steps 5 and 6). It returns nil for a
// game that names its variant.
func (r *Replayer) UntoldVariant(pg *pdn.Game) *rules.Variant {
	if _, _, _, decided, err := variantFromTags(pg, r.opts.Variant); decided || err != nil {
		return nil
	}
	v, _, _ := ResolveVariant(pg, nil)
	return v
}

// ReplayAs replays pg as variant v, recording basis, the way Replay does
// once it has decided the variant: without a second look at other
// variants.
func (r *Replayer) ReplayAs(pg *pdn.Game, v *rules.Variant, basis Basis, out *Game) error {
	return r.replayAs(pg, v, basis, out, nil)
}

// SameBoardAndNotation reports whether a and b are played on boards of one
// size and written in one notation: the variants among which a game that
// names none is read (replayOthers, source inference).
func SameBoardAndNotation(a, b *rules.Variant) bool {
	return a.Board.Width == b.Board.Width && a.Board.Height == b.Board.Height && a.DefaultNotation == b.DefaultNotation
}

// DecidedByReplay returns the name of the variant that a replayed game's
// warnings say the second look chose (BasisReplay: its WarnVariantByReplay
// warning), or "" when they say none did. Callers that keep only a game's
// warnings (ingest's pipeline items) learn its basis from them.
func DecidedByReplay(warnings []Warning) string {
	for i := range warnings {
		if warnings[i].Kind == WarnVariantByReplay {
			return warnings[i].Variant
		}
	}
	return ""
}

// MayBeOtherVariant reports whether a rejection may come from the
// variant's rules rather than from the game (an illegal, ambiguous or
// unreadable move): another variant could accept the game.
func MayBeOtherVariant(err error) bool { return otherVariantMayAccept(err) }

// The openings of the texts of the warnings of games whose variant their
// source decided (WarnVariantBySource: a game read as the source's
// variant) or that the source's variant rejects and the variant of their
// squares accepts (WarnSourceVariantRejects). Stored texts begin so.
const (
	TextVariantBySource      = "variant decided by its source:"
	TextSourceVariantRejects = "the variant of its source rejects it:"
)
