package schema_test

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

var updateMoveRules = flag.Bool("update-move-rules", false, "rewrite the move rules block of migration 0019 from package rules")

const (
	moveRulesFile  = "migrations/0019_hash_moves.sql"
	moveRulesBegin = "-- BEGIN MOVE RULES (generated from package rules: go test ./schema -run TestMoveRulesUpToDate -update-move-rules)\n"
	moveRulesEnd   = "-- END MOVE RULES\n"
)

// The directions of migration 0019, as (files, ranks) steps: 1-4 the
// diagonals, 5-8 the ranks and files (two squares apart on a board of dark
// squares, where the next dark square along a row or column is two away;
// one apart on Turkish's board).
func moveDirs(v *rules.Variant) [9][2]int {
	u := 2
	if v.Board.AllSquares {
		u = 1
	}
	return [9][2]int{{}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}, {0, u}, {0, -u}, {-u, 0}, {u, 0}}
}

func intList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "'{" + strings.Join(s, ",") + "}'"
}

// moveRulesSQL writes the rules of every variant as migration 0019's rows:
// the board (names, ranks, the square one step away in each direction),
// the directions pieces move and capture in, and the capture traits.
func moveRulesSQL() string {
	var rows []string
	for _, v := range rules.Variants() {
		b := v.Board
		n := b.Squares()
		dirs := moveDirs(v)
		var names []string
		var ranks, next []int
		for sq := 1; sq <= n; sq++ {
			name := b.Algebraic(sq)
			if v == rules.English {
				// The move reader names English squares from Black's side.
				name = b.Algebraic(n + 1 - sq)
			}
			names = append(names, name)
			f, r := b.Coords(sq)
			ranks = append(ranks, r)
			for d := 1; d <= 8; d++ {
				next = append(next, b.SquareAt(f+dirs[d][0], r+dirs[d][1]))
			}
		}
		// Directions 1, 2, 5 go up the board (White's forward), 3, 4, 6
		// down, 7 and 8 sideways.
		var capture, kingMove, whiteMan, blackMan []int
		switch {
		case b.AllSquares:
			capture, kingMove, whiteMan, blackMan = []int{5, 6, 7, 8}, []int{5, 6, 7, 8}, []int{5, 7, 8}, []int{6, 7, 8}
		case v.OrthogonalCaptures:
			capture, kingMove, whiteMan, blackMan = []int{1, 2, 3, 4, 5, 6, 7, 8}, []int{1, 2, 3, 4}, []int{1, 2}, []int{3, 4}
		default:
			capture, kingMove, whiteMan, blackMan = []int{1, 2, 3, 4}, []int{1, 2, 3, 4}, []int{1, 2}, []int{3, 4}
		}
		whiteCap, blackCap := capture, capture
		if !v.MenCaptureBackward {
			whiteCap, blackCap = nil, nil
			for _, d := range capture {
				if dirs[d][1] >= 0 {
					whiteCap = append(whiteCap, d)
				}
				if dirs[d][1] <= 0 {
					blackCap = append(blackCap, d)
				}
			}
		}
		prec := map[rules.CapturePrecedence]string{rules.PrecedenceCount: "count", rules.PrecedenceKings: "kings",
			rules.PrecedenceItalian: "italian", rules.PrecedenceValue: "value"}[v.Precedence]
		if !v.MajorityCapture {
			prec = "none"
		}
		promo := map[rules.PromotionInCapture]string{rules.PromoteAtEnd: "end", rules.PromoteAndContinue: "continue",
			rules.PromoteEndsMove: "stop"}[v.Promotion]
		quoted := make([]string, len(names))
		for i, s := range names {
			quoted[i] = `"` + s + `"`
		}
		rows = append(rows, fmt.Sprintf("(%d, %d, %d, %t,\n '{%s}',\n %s,\n %s,\n %s, %s, %s, %s, %s,\n %t, %t, '%s', %t, %t, %t, %t, %t, '%s')",
			codec.VariantID(v), b.Height, n, v.DefaultNotation == rules.Algebraic,
			strings.Join(quoted, ","), intList(ranks), intList(next),
			intList(capture), intList(kingMove), intList(whiteMan), intList(blackMan), intList(whiteCap)+", "+intList(blackCap),
			v.MenCannotCaptureKings, v.FlyingKings, prec, v.KingPrecedence, v.KingHaltsBehindKing,
			v.CapturesRemovedAtOnce, v.KingLandsBehind, b.AllSquares, promo))
	}
	return "INSERT INTO draughtsdb_move_rules (variant, height, squares, algebraic, names, ranks, next,\n" +
		"    capture_dirs, king_dirs, white_man_dirs, black_man_dirs, white_capture_dirs, black_capture_dirs,\n" +
		"    men_spare_kings, flying, majority, king_precedence, killer, removed_at_once, lands_behind, no_turn_back, promotion) VALUES\n" +
		strings.Join(rows, ",\n") + ";\n"
}

// TestMoveRulesUpToDate: migration 0019's rule tables are package rules'
// boards and traits (-update-move-rules rewrites them).
func TestMoveRulesUpToDate(t *testing.T) {
	checkGeneratedBlock(t, moveRulesFile, moveRulesBegin, moveRulesEnd, moveRulesSQL(), *updateMoveRules,
		"the move rules differ from package rules'; go test ./schema -run TestMoveRulesUpToDate -update-move-rules rewrites them")
}
