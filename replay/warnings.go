package replay

import "strings"

// warningKinds names each kind of warning by a phrase its text contains,
// for counts by kind (validate --json). Texts are in replay.go and in the
// PDN reader (ingest/pdn); a text with none of these phrases is "other".
var warningKinds = []struct{ kind, phrase string }{
	{warnResultFromToken, warnResultFromToken},
	{warnRepeatedTag, warnRepeatedTag},
	{"FEN side to move unknown", `FEN side to move "?" read as`},
	{"result completed from the final position", "completed from the final position"},
	{"result contradicts the final position", "contradicts the final position"},
	{"result not understood", "is not a game result"},
	{"result token differs from the Result tag", "differs from the Result tag"},
	{"no result at the end of the game", "no result at the end of the game"},
	{"moves without tags", "moves without tags"},
	{"date not understood", "not understood; stored as"},
	{"date range", "is a range; stored as its first date"},
	{"NUL byte removed", "NUL"},
	{"text between tags skipped", "neither a tag nor movetext skipped"},
	{"text that is not PDN skipped", "that is not PDN skipped"},
	{"variant decided by replay", variantByReplay},
	{warnResolvedByRest, warnResolvedByRest},
	{warnResolvedByResult, warnResolvedByResult},
	{"variant decided by its source", WarnVariantBySource},
	{"the variant of its source rejects it", WarnSourceVariantRejects},
}

// warnResultFromToken starts the warning of a game whose result token,
// not its Result tag, agrees with the final position (and is stored).
const warnResultFromToken = "result taken from the result token"

// warnRepeatedTag starts the warning of a tag given twice (repeatedTags).
const warnRepeatedTag = "tag repeated:"

// WarningKind classifies a game warning (Game.Warnings) for counting.
func WarningKind(w string) string {
	for _, k := range warningKinds {
		if strings.Contains(w, k.phrase) {
			return k.kind
		}
	}
	return "other"
}
