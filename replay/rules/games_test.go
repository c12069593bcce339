package rules

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realGameFiles are the games of testdata/games (see its README) and the
// variant whose rules they follow.
var realGameFiles = []struct {
	file  string
	v     *Variant
	games int // how many games the file holds
}{
	{"italian_campionato_assoluto_2005.pdn.gz", Italian, 53},
	{"czech_mrcd2000kval.pdn.gz", Czech, 40},
	{"czech_mrcd2006.pdn.gz", Czech, 44},
	{"czech_mrcd2007.pdn.gz", Czech, 102},
	{"online_antidraughts.pdn.gz", Antidraughts, 25},
	{"online_breakthrough.pdn.gz", Breakthrough, 25},
	{"online_frisian.pdn.gz", Frisian, 14}, // 14 move texts (16 tag sections)
	{"online_frysk.pdn.gz", Frysk, 25},
}

// TestRealGames replays every game of realGameFiles: each move must name
// exactly one legal move (or several with the same captures) of the
// position reached. It is the arbiter for rules no perft table covers
// (numbering, notation, precedence met in real play).
func TestRealGames(t *testing.T) {
	for _, f := range realGameFiles {
		t.Run(f.file, func(t *testing.T) {
			games, plies := replayGameFile(t, f.v, filepath.Join("testdata", "games", f.file))
			if games != f.games {
				t.Errorf("%d games, want %d", games, f.games)
			}
			t.Logf("%d games, %d plies", games, plies)
		})
	}
}

// pdnGame is one game of a file: its FEN (or "") and move tokens.
type pdnGame struct {
	fen    string
	moves  []string
	result string // the result token that ended the game
}

// replayGameFile reads path with a small PDN reader for the test (tags only
// for FEN; comments, variations, NAGs and move numbers skipped; a result
// token ends a game) and replays every game.
func replayGameFile(t *testing.T, v *Variant, path string) (games, plies int) {
	t.Helper()
	gs := readPDNGames(t, path)
	decided := 0
	defer func() { t.Logf("%d games decided by the rules", decided) }()
	for gi, g := range gs {
		pos := v.StartPosition()
		if g.fen != "" {
			var err error
			if pos, err = ParseFEN(v, g.fen); err != nil {
				t.Fatalf("%s game %d: %v", path, gi+1, err)
			}
		}
		end, ply, msg := replayMoves(pos, KingMoveCounter{}, g.moves, 0)
		if msg != "" {
			t.Errorf("%s game %d ply %d: %s", path, gi+1, ply+1, msg)
			continue
		}
		plies += len(g.moves)
		// A game the rules decide must carry that result (the first
		// number is the first mover's).
		if o := end.Outcome(); o != Undecided {
			first := winner(v.FirstToMove)
			want := map[Outcome][]string{first: {"1-0", "2-0"}, first ^ 3: {"0-1", "0-2"}}[o]
			if g.result != want[0] && g.result != want[1] {
				t.Errorf("%s game %d: ends with %v (%s) but is scored %s", path, gi+1, o, end.FEN(), g.result)
			}
			decided++
		}
	}
	return len(gs), plies
}

func readPDNGames(t *testing.T, path string) []pdnGame {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var games []pdnGame
	var g pdnGame
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '[':
			// [Name "value"]: the value may hold ']' (lidraughts event
			// names such as "Qualifier Fryslân Open [4/4]").
			end := strings.IndexByte(text[i:], ']')
			if q := strings.IndexByte(text[i:], '"'); q >= 0 && q < end {
				q2 := strings.IndexByte(text[i+q+1:], '"')
				end = q + 1 + q2 + strings.IndexByte(text[i+q+1+q2:], ']')
			}
			if tag := text[i+1 : i+end]; strings.HasPrefix(tag, "FEN ") {
				g.fen = strings.Trim(strings.TrimSpace(tag[4:]), `"`)
			}
			i += end + 1
		case c == '{':
			i += strings.IndexByte(text[i:], '}') + 1
		case c == '(':
			for depth := 0; i < len(text); i++ {
				if text[i] == '(' {
					depth++
				} else if text[i] == ')' {
					if depth--; depth == 0 {
						i++
						break
					}
				}
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\r\n{([", rune(text[j])) {
				j++
			}
			tok := text[i:j]
			i = j
			if k := strings.LastIndexByte(tok, '.'); k >= 0 {
				tok = tok[k+1:] // a move number, possibly glued: "12.21-17"
			}
			switch {
			case tok == "" || tok[0] == '$':
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "2-0" || tok == "0-2" || tok == "1-1" || tok == "0-0" || tok == "*":
				g.result = tok
				games = append(games, g)
				g = pdnGame{}
			default:
				g.moves = append(g.moves, tok)
			}
		}
	}
	return games
}

// replayMoves plays moves from pos; where a text names several legal moves
// that capture different pieces (a path the writer left out), it tries
// each and keeps the one the rest of the game agrees with. It returns the
// failing ply and why, or "" when every move was legal.
//
// Every move must also be allowed by KingMoveCounter (Frisian's limit on
// moving the same king).
func replayMoves(pos Position, k KingMoveCounter, moves []string, ply int) (Position, int, string) {
	for ; ply < len(moves); ply++ {
		if o := pos.Outcome(); o != Undecided {
			return pos, ply, fmt.Sprintf("the game goes on (%q) after it ended: %v in %s", moves[ply], o, pos.FEN())
		}
		sq, _, err := ParseMoveText(pos.Board(), moves[ply])
		if err != nil {
			return pos, ply, err.Error()
		}
		legal := pos.LegalMoves(nil)
		cands := pickMoves(legal, sq)
		switch len(cands) {
		case 0:
			var all []string
			for i := range legal {
				all = append(all, FormatMove(pos.Variant(), &legal[i], pos.Variant().DefaultNotation, true))
			}
			return pos, ply, fmt.Sprintf("%q is not a legal move of %s (legal: %v)", moves[ply], pos.FEN(), all)
		case 1:
			if !k.Allowed(&pos, &cands[0]) {
				return pos, ply, fmt.Sprintf("%q moves the same king too often (%+v) in %s", moves[ply], k, pos.FEN())
			}
			k.Update(&pos, &cands[0])
			pos.Play(&cands[0])
			continue
		}
		bestPly, bestMsg := ply, ""
		for i := range cands {
			if !k.Allowed(&pos, &cands[i]) {
				continue
			}
			q, kq := pos, k
			kq.Update(&q, &cands[i])
			q.Play(&cands[i])
			end, p, msg := replayMoves(q, kq, moves, ply+1)
			if msg == "" {
				return end, p, ""
			}
			if p > bestPly {
				bestPly, bestMsg = p, msg
			}
		}
		return pos, bestPly, bestMsg
	}
	return pos, ply, ""
}

// pickMoves returns the legal moves that squares (start, landing
// squares..., end) names: start and end must match, and written
// intermediate squares pick among moves that share them. Moves that
// capture the same pieces are one move: only the first is kept.
func pickMoves(legal []Move, sq []int) []Move {
	var cands []Move
	for _, m := range legal {
		if m.From() == sq[0] && m.To() == sq[len(sq)-1] {
			cands = append(cands, m)
		}
	}
	if len(cands) > 1 && len(sq) > 2 {
		var byPath []Move
		for _, m := range cands {
			if slicesEqual(m.Path(nil), sq[1:]) {
				byPath = append(byPath, m)
			}
		}
		if len(byPath) > 0 {
			cands = byPath
		}
	}
	var out []Move
next:
	for _, m := range cands {
		for _, o := range out {
			if o.captured == m.captured {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
