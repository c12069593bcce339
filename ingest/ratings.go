package ingest

import (
	"sort"
	"strconv"
	"strings"
)

// The tags a game's ratings and FMJD ids are read from, by lower-case
// name, the preferred first. PDN 2.0 names the FMJD rating WhiteRating,
// chess's PGN (and lidraughts' and kurnik's exports) WhiteElo; PDN 3.0 adds
// WhiteFmjdId, and chess files name the federation's id WhiteFideId.
// Tag names are matched in any case (WhiteFMJDId, whiteelo).
var (
	whiteRatingTags = []string{"whiterating", "whiteelo"}
	blackRatingTags = []string{"blackrating", "blackelo"}
	whiteIDTags     = []string{"whitefmjdid", "whitefideid"}
	blackIDTags     = []string{"blackfmjdid", "blackfideid"}
)

// playerFacts are the rating columns of a game: 0 and "" for none.
type playerFacts struct {
	whiteRating, blackRating int32
	whiteID, blackID         string
}

// ratingSpace is what is trimmed off a value; migration 0018's
// draughtsdb_rating and draughtsdb_player_id trim the same.
const ratingSpace = " \t\r\n"

// parseRating is the rating a tag value gives, 0 for none: unknown ("?",
// "-", ""), zero ("0000" is how lidraughts and kurnik write an unrated
// player) or anything but a number of at most four digits. It is the rule
// of draughtsdb_rating (migration 0018), which fills the column for games
// imported before it.
func parseRating(v string) int32 {
	v = strings.Trim(v, ratingSpace)
	if len(v) == 0 || len(v) > 4 {
		return 0
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0
		}
	}
	n, _ := strconv.Atoi(v)
	return int32(n)
}

// parsePlayerID is the id a tag value gives, "" for none (the rule of
// draughtsdb_player_id): trimmed, not unknown, not all zeros, at most 32
// characters.
func parsePlayerID(v string) string {
	v = strings.Trim(v, ratingSpace)
	if v == "" || v == "?" || v == "-" || len([]rune(v)) > 32 || strings.Trim(v, "0") == "" {
		return ""
	}
	return v
}

// readPlayerFacts reads the rating columns from the game's other tags as
// stored (otherTagMap: cleaned, the first of each exact name), so that the
// importer and migration 0018's backfill from games.tags agree: of the
// tags for one column, the first preferred name wins, then the first name
// in byte order among its spellings, skipping tags that give no value.
func readPlayerFacts(tags map[string]string) playerFacts {
	if len(tags) == 0 {
		return playerFacts{}
	}
	var keys []string
	for k := range tags {
		switch strings.ToLower(k) {
		case "whiterating", "whiteelo", "blackrating", "blackelo",
			"whitefmjdid", "whitefideid", "blackfmjdid", "blackfideid":
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return playerFacts{}
	}
	sort.Strings(keys)
	first := func(names []string, parse func(string) bool) {
		for _, name := range names {
			for _, k := range keys {
				if strings.ToLower(k) == name && parse(tags[k]) {
					return
				}
			}
		}
	}
	var f playerFacts
	rating := func(dst *int32) func(string) bool {
		return func(v string) bool { *dst = parseRating(v); return *dst != 0 }
	}
	id := func(dst *string) func(string) bool {
		return func(v string) bool { *dst = parsePlayerID(v); return *dst != "" }
	}
	first(whiteRatingTags, rating(&f.whiteRating))
	first(blackRatingTags, rating(&f.blackRating))
	first(whiteIDTags, id(&f.whiteID))
	first(blackIDTags, id(&f.blackID))
	return f
}
