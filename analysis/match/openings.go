package match

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Opening is where a pair of games starts: the position the engines
// start from, and how the stored games reach it. When the moves from the
// variant's initial position are known, Start is that position and Line
// those moves, so the stored games begin at the initial position and the
// opening tree and position search see them whole; otherwise Start is a
// set-up position (the games' FEN tag) and Line the moves after it.
type Opening struct {
	// Name is the ballot's name ("1-I cd4 ba5 dc5", "001 09-13 21-17
	// 05-09") or "" when it has none.
	Name string
	// Start is where the stored game begins; Line the moves from Start to
	// Pos (often none after a set-up position).
	Start rules.Position
	Line  []rules.Move
	// Pos is the position the engines start from.
	Pos rules.Position
}

// FEN is the opening position's canonical FEN.
func (o *Opening) FEN() string { return o.Pos.FEN() }

// ErrOpenings: an openings file that cannot be used.
var ErrOpenings = errors.New("match: bad openings")

// maxLinePlies bounds the search for the moves that reach an opening given
// as a FEN (LineTo): the published ballots are 2 plies (International) or
// 3 (English, Russian); 4 plies of International are about 7,000 positions.
const maxLinePlies = 4

// ReadOpenings reads an openings file of variant v. Two forms:
//
//   - lines, each a FEN ("W:W31-50:B1-20", as Moby Dam's ballot files) or
//     a move line from the initial position ("32-28 19-23", move numbers
//     allowed), blank lines and lines starting with '#' or ';' skipped;
//   - PDN games (a file with a '[' tag line): each game's FEN tag (if
//     any) and main line.
//
// Every opening is checked: its moves must be legal, and its position must
// leave the side to move a legal move and not be decided already. A FEN
// that some line of at most 4 plies reaches from the initial position gets
// that line (see Opening.Line). name labels messages (the file name).
func ReadOpenings(v *rules.Variant, r io.Reader, name string) ([]Opening, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrOpenings, name, err)
	}
	var out []Opening
	if isPDN(data) {
		rd := pdn.NewReader(bytes.NewReader(data), name)
		for {
			g, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrOpenings, name, err)
			}
			o, err := openingOf(v, g.Tag("FEN"), g.MainLine())
			if err != nil {
				return nil, fmt.Errorf("%w: %s:%d: game %d: %v", ErrOpenings, name, g.Line, g.Ordinal, err)
			}
			out = append(out, o)
		}
	} else {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
			o, err := openingOfLine(v, line)
			if err != nil {
				return nil, fmt.Errorf("%w: %s:%d: %s: %v", ErrOpenings, name, n, quote(line), err)
			}
			out = append(out, o)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrOpenings, name, err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s: no opening in it", ErrOpenings, name)
	}
	return out, nil
}

// isPDN reports whether the text has a tag line: a line starting with
// '[' (after blanks).
func isPDN(data []byte) bool {
	for line := range bytes.Lines(data) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '[' {
			return true
		}
	}
	return false
}

// looksLikeFEN: a FEN starts with the side to move and a colon ("W:",
// "B:"), possibly quoted.
func looksLikeFEN(s string) bool {
	s = strings.TrimLeft(s, "\"")
	return len(s) >= 2 && (s[0] == 'W' || s[0] == 'B') && s[1] == ':'
}

func openingOfLine(v *rules.Variant, line string) (Opening, error) {
	if looksLikeFEN(line) {
		return openingOf(v, line, nil)
	}
	// A move line: read as PDN movetext (move numbers, "1..." and
	// results are the PDN reader's business).
	g, err := pdn.NewReader(strings.NewReader(line+"\n"), "line").Next()
	if err != nil {
		return Opening{}, err
	}
	return openingOf(v, "", g.MainLine())
}

// openingOf plays moves from fen (the initial position when "") and
// checks the position reached.
func openingOf(v *rules.Variant, fen string, moves []string) (Opening, error) {
	g, err := replay.PlayLine(v, fen, moves)
	if err != nil {
		return Opening{}, err
	}
	o := Opening{Start: g.Start, Line: g.Moves, Pos: g.Final}
	if g.StartFEN != "" && len(moves) == 0 {
		if line := LineTo(v, g.Final, maxLinePlies); line != nil {
			o.Start, o.Line = v.StartPosition(), line
		}
	}
	if err := checkPlayable(&o.Pos); err != nil {
		return Opening{}, err
	}
	return o, nil
}

// checkPlayable refuses a start position where the game is already over.
func checkPlayable(p *rules.Position) error {
	if o := p.Outcome(); o != rules.Undecided {
		return fmt.Errorf("the game is over in %s (%s)", p.FEN(), o)
	}
	return nil
}

// LineTo finds moves that reach target from v's initial position in at
// most maxPlies plies: the first line in legal-move order of the fewest
// plies, or nil. (Iterative deepening; a handful of plies only.)
func LineTo(v *rules.Variant, target rules.Position, maxPlies int) []rules.Move {
	start := v.StartPosition()
	want := target.Hash()
	if start.Hash() == want {
		return []rules.Move{}
	}
	line := make([]rules.Move, 0, maxPlies)
	var walk func(p *rules.Position, depth int) bool
	walk = func(p *rules.Position, depth int) bool {
		for _, m := range p.LegalMoves(nil) {
			q := *p
			q.Play(&m)
			line = append(line, m)
			if depth == 1 && q.Hash() == want || depth > 1 && walk(&q, depth-1) {
				return true
			}
			line = line[:len(line)-1]
		}
		return false
	}
	for d := 1; d <= maxPlies; d++ {
		if walk(&start, d) {
			return line
		}
	}
	return nil
}

//go:embed ballots
var ballotFiles embed.FS

// ballotSources are the published ballot lists Ballots serves, by
// variant: Moby Dam's International 2-move ballots (the matchfile of
// rhalbersma/mobydam: the 81 positions after one move each, less 31-27
// 16-21 and 32-27 16-21, where White takes a man for nothing), the ACF 3-move ballots of
// English checkers (pydraughts' "standard" list), and the 150 ballots of
// Russian and Brazilian draughts (pydraughts).
var ballotSources = map[*rules.Variant]string{
	rules.International: "ballots/international_2move.fen",
	rules.English:       "ballots/english_3move.json",
	rules.Russian:       "ballots/russian_brazilian_150.json",
	rules.Brazilian:     "ballots/russian_brazilian_150.json",
}

// BallotPlies is the depth of the generated ballots of a variant without a
// published list: every distinct position after this many plies.
const BallotPlies = 2

// Ballots returns the built-in openings of v: its published ballot list
// (see ballotSources) in the list's order, or for any other variant every
// distinct position after BallotPlies plies from the initial position, in
// legal-move order (with their lines), leaving out those where the game is
// over.
func Ballots(v *rules.Variant) ([]Opening, error) {
	file, ok := ballotSources[v]
	if !ok {
		return generatedBallots(v, BallotPlies), nil
	}
	data, err := ballotFiles.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(file, ".json") {
		return ReadOpenings(v, bytes.NewReader(data), file)
	}
	// {"all": {name: fen}, "standard": [name, ...]}: the standard list, in
	// its order.
	var doc struct {
		All      map[string]string `json:"all"`
		Standard []string          `json:"standard"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []Opening
	seen := map[string]bool{}
	for _, name := range doc.Standard {
		if seen[name] {
			continue
		}
		seen[name] = true
		fen, ok := doc.All[name]
		if !ok {
			return nil, fmt.Errorf("%s: ballot %q has no position", file, name)
		}
		o, err := openingOf(v, fen, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: ballot %q: %w", file, name, err)
		}
		o.Name = name
		// The name spells the ballot's moves after its number ("1-I cd4
		// ba5 dc5", "001 09-13 21-17 05-09"): that move order, where it
		// reaches the position, rather than LineTo's first transposition.
		if f := strings.Fields(name); len(f) > 1 {
			if g, err := replay.PlayLine(v, "", f[1:]); err == nil && g.Final.Hash() == o.Pos.Hash() {
				o.Start, o.Line = g.Start, g.Moves
			}
		}
		out = append(out, o)
	}
	return out, nil
}

func generatedBallots(v *rules.Variant, plies int) []Opening {
	var out []Opening
	seen := map[uint64]bool{}
	line := make([]rules.Move, 0, plies)
	var walk func(p *rules.Position, depth int)
	walk = func(p *rules.Position, depth int) {
		if depth == 0 {
			if !seen[p.Hash()] && p.Outcome() == rules.Undecided {
				seen[p.Hash()] = true
				out = append(out, Opening{Start: v.StartPosition(), Line: append([]rules.Move(nil), line...), Pos: *p})
			}
			return
		}
		for _, m := range p.LegalMoves(nil) {
			q := *p
			q.Play(&m)
			line = append(line, m)
			walk(&q, depth-1)
			line = line[:len(line)-1]
		}
	}
	start := v.StartPosition()
	walk(&start, plies)
	return out
}
