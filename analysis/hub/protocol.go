package hub

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Errors of the notation helpers.
var (
	ErrPosition = errors.New("hub: bad position string")
	ErrMove     = errors.New("hub: bad or illegal move")
)

// Line is one protocol line: a command and its arguments. Flags (arguments
// without "=value", such as "think" in "go think") have the empty value.
type Line struct {
	Cmd  string
	Args map[string]string
	// Order lists the argument names as they appeared.
	Order []string
}

// Get returns the value of argument name and whether it was present.
func (l Line) Get(name string) (string, bool) {
	v, ok := l.Args[name]
	return v, ok
}

// ParseLine splits a line `cmd a=1 b="x y" flag` into a Line. Values may be
// double-quoted (required when they contain spaces or '=' or are empty).
func ParseLine(s string) Line {
	l := Line{Args: map[string]string{}}
	i := 0
	n := len(s)
	skip := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
	}
	word := func() string {
		st := i
		for i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '=' && s[i] != '\r' {
			i++
		}
		return s[st:i]
	}
	skip()
	l.Cmd = word()
	for {
		skip()
		if i >= n {
			break
		}
		name := word()
		val := ""
		if i < n && s[i] == '=' {
			i++
			if i < n && s[i] == '"' {
				i++
				st := i
				for i < n && s[i] != '"' {
					i++
				}
				val = s[st:i]
				if i < n {
					i++
				}
			} else {
				st := i
				for i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' {
					i++
				}
				val = s[st:i]
			}
		}
		if name == "" {
			i++ // a stray '='
			continue
		}
		if _, dup := l.Args[name]; !dup {
			l.Order = append(l.Order, name)
		}
		l.Args[name] = val
	}
	return l
}

// quote returns v, double-quoted if it is empty or contains a space or '='.
// A value cannot hold a double quote or a line break (the protocol has no
// escapes): they become ' and a space.
func quote(v string) string {
	v = strings.NewReplacer(`"`, "'", "\n", " ", "\r", " ").Replace(v)
	if v == "" || strings.ContainsAny(v, " \t=") {
		return `"` + v + `"`
	}
	return v
}

// FormatMove writes m in Hub notation: "32-28" for a plain move,
// "28x19x23" (from x to x captured squares, ascending) for a capture.
func FormatMove(m *rules.Move) string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(m.From()))
	if !m.IsCapture() {
		sb.WriteByte('-')
		sb.WriteString(strconv.Itoa(m.To()))
		return sb.String()
	}
	sb.WriteByte('x')
	sb.WriteString(strconv.Itoa(m.To()))
	var buf [32]int
	for _, c := range m.Captured(buf[:0]) {
		sb.WriteByte('x')
		sb.WriteString(strconv.Itoa(c))
	}
	return sb.String()
}

// ParseMove resolves Hub move text against the legal moves of pos: from and
// to must match, and for a capture the captured squares (in any order) must
// be exactly the move's captured set. A capture written with only from and
// to ("28x19") is accepted when one legal move matches.
func ParseMove(pos *rules.Position, s string) (rules.Move, error) {
	s = strings.TrimSpace(s)
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == 'x' || r == 'X' || r == ':' })
	if len(fields) < 2 {
		return rules.Move{}, fmt.Errorf("%w: %q", ErrMove, s)
	}
	sq := make([]int, len(fields))
	n := pos.Board().Squares()
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > n {
			return rules.Move{}, fmt.Errorf("%w: %q: bad square %q", ErrMove, s, f)
		}
		sq[i] = v
	}
	capt := append([]int(nil), sq[2:]...)
	sort.Ints(capt)
	legal := pos.LegalMoves(nil)
	var found []rules.Move
	var buf [32]int
	for i := range legal {
		m := &legal[i]
		if m.From() != sq[0] || m.To() != sq[1] {
			continue
		}
		if len(capt) > 0 || len(fields) == 2 && m.IsCapture() {
			got := m.Captured(buf[:0])
			if len(capt) > 0 && !equalInts(got, capt) {
				continue
			}
		}
		found = append(found, *m)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return rules.Move{}, fmt.Errorf("%w: %q is not legal in %s", ErrMove, s, pos.FEN())
	}
	return rules.Move{}, fmt.Errorf("%w: %q is ambiguous in %s (give the captured squares)", ErrMove, s, pos.FEN())
}

func equalInts(a, b []int) bool {
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

// FormatPosition writes pos as a Hub position string: 'W' or 'B' for the
// side to move, then one character per square in square order: 'w' 'b'
// men, 'W' 'B' kings, 'e' empty (51 characters on 10x10, 33 on 8x8, 73 on
// 12x12).
func FormatPosition(pos *rules.Position) string {
	n := pos.Board().Squares()
	b := make([]byte, 0, n+1)
	if pos.SideToMove() == rules.White {
		b = append(b, 'W')
	} else {
		b = append(b, 'B')
	}
	for s := 1; s <= n; s++ {
		b = append(b, "ewWbB"[pos.Piece(s)])
	}
	return string(b)
}

// ParsePosition reads a Hub position string for variant v. The length must
// fit v's board.
func ParsePosition(v *rules.Variant, s string) (rules.Position, error) {
	s = strings.TrimSpace(s)
	n := v.Board.Squares()
	if len(s) != n+1 {
		return rules.Position{}, fmt.Errorf("%w: %d squares, the %s board has %d", ErrPosition, len(s)-1, v.Name, n)
	}
	var side rules.Color
	switch s[0] {
	case 'W', 'w':
		side = rules.White
	case 'B', 'b':
		side = rules.Black
	default:
		return rules.Position{}, fmt.Errorf("%w: side to move %q", ErrPosition, s[0])
	}
	pos := rules.NewPosition(v, side)
	for i := 1; i <= n; i++ {
		var pc rules.Piece
		switch s[i] {
		case 'e', '.', '-':
			continue
		case 'w':
			pc = rules.WhiteMan
		case 'W':
			pc = rules.WhiteKing
		case 'b':
			pc = rules.BlackMan
		case 'B':
			pc = rules.BlackKing
		default:
			return rules.Position{}, fmt.Errorf("%w: square %d is %q", ErrPosition, i, s[i])
		}
		pos.SetPiece(i, pc)
	}
	// The FEN reader's checks (a man on its own promotion row) hold for
	// Hub positions too, as for FEN tags and DXP setups.
	if _, err := rules.ParseFEN(v, pos.FEN()); err != nil {
		var fe *rules.FENError
		if errors.As(err, &fe) && fe.Detail != "" {
			return rules.Position{}, fmt.Errorf("%w: %s", ErrPosition, fe.Detail)
		}
		return rules.Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
	}
	return pos, nil
}

// FormatScore writes a score in hundredths of a man as men with two
// decimals ("0.25", "-1.04", "299.93"), as Hub engines do.
func FormatScore(score int) string {
	sign := ""
	if score < 0 {
		sign = "-"
		score = -score
	}
	return fmt.Sprintf("%s%d.%02d", sign, score/100, score%100)
}

// ParseScore reads a score in men ("0.25") into hundredths of a man.
func ParseScore(s string) (int, error) {
	f, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
	if err != nil {
		return 0, err
	}
	if f >= 0 {
		return int(f*100 + 0.5), nil
	}
	return -int(-f*100 + 0.5), nil
}

// IsMateScore reports whether a score (hundredths) is in draughtsdb's
// forced win/loss range.
func IsMateScore(score int) bool {
	return score >= search.MateThreshold || score <= -search.MateThreshold
}
