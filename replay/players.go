package replay

import (
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Players returns the names of White and Black as the game tags them: the
// White and Black tags (Bianco and Nero in Italian files), or else the P1
// and P2 tags that online sites (PlayStrategy) write for the first and
// second player. P1 is the side that moves first in the variant: in
// PlayStrategy's American games P1's rating goes up exactly when the first
// number of Result wins, and the first number belongs to the first mover
// (games that end with the first mover unable to move are written 0-1), so
// there P1 is Black.
func Players(pg *pdn.Game, v *rules.Variant) (white, black string) {
	white = strings.TrimSpace(pg.Tag("White"))
	black = strings.TrimSpace(pg.Tag("Black"))
	if white == "" && black == "" {
		// The Italian federation's tag names.
		white = strings.TrimSpace(pg.Tag("Bianco"))
		black = strings.TrimSpace(pg.Tag("Nero"))
	}
	if white != "" || black != "" {
		return white, black
	}
	p1 := strings.TrimSpace(pg.Tag("P1"))
	p2 := strings.TrimSpace(pg.Tag("P2"))
	if p1 == "" && p2 == "" {
		return "", ""
	}
	if firstMover(v) == rules.Black {
		return p2, p1
	}
	return p1, p2
}
