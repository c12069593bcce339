package pdn

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Evaluation comments: how an engine evaluation of a position travels in
// PDN, so that `draughtsdb export --format pdn` and `draughtsdb import`
// carry table evaluations (schema/migrations/0003_analysis.sql) exactly.
// This file is the syntax only; which position a comment evaluates and how
// it is stored is the importer's (ingest/evalcomments.go) and the
// exporter's (queries/export/pdn.go).
//
// One comment per evaluation, made of PGN-style commands:
//
//	{[%eval 0.25][%depth 12][%engine draughtsdb][%setting depth=12][%version 0.1]
//	 [%best 32-28][%pv 32-28 19-23][%nodes 12345][%time 15][%at 2026-11-29T10:00:00.123456Z]}
//
// A comment after a move evaluates the position after that move; a comment
// before the first move evaluates the start position. A comment is an
// evaluation when it holds an %eval command; the others are ignored.
//
//	%eval     the score in men (hundredths exact: 0.25 is 25), from WHITE's
//	          view as PGN tools expect (the table stores it from the side
//	          to move's view; the sign is turned accordingly)
//	%mate     present when the score is a forced win or loss (mate = true)
//	%depth    depth of the last completed iteration (default 0)
//	%engine   engine name (default "pdn")
//	%setting  engine setting, e.g. depth=8 (default "")
//	%version  engine version (default "")
//	%best     best move in Hub notation (absent: NULL)
//	%pv       principal variation, space separated (default "")
//	%nodes    nodes searched (default 0)
//	%time     milliseconds (default 0)
//	%at       evaluated_at, RFC 3339 (default: the time of the import)
//
// A value is written as is, except that the bytes % [ ] { } " and control
// characters, and a space that is first, last or after another space, are
// written %XX (hexadecimal), so every value survives PDN comment folding.

// Evaluation is an engine's evaluation of a position as an evaluation
// comment carries it: a row of table evaluations without its key's
// position (variant, hash), which the comment's place in the game gives.
type Evaluation struct {
	Engine        string
	Setting       string
	Score         int32 // hundredths of a man, side to move's view
	Mate          bool
	Depth         int32
	BestMove      *string
	PV            string
	Nodes         int64
	TimeMS        int32
	EngineVersion string
	EvaluatedAt   time.Time // zero: now (at import)
}

// FormatEvalComment writes e as one PDN comment's text (without braces);
// whiteToMove tells the side to move of the evaluated position, to write
// the score from White's view.
func FormatEvalComment(e *Evaluation, whiteToMove bool) string {
	var b strings.Builder
	score := e.Score
	if !whiteToMove {
		score = -score
	}
	b.WriteString("[%eval ")
	b.WriteString(formatHundredths(score))
	b.WriteByte(']')
	if e.Mate {
		b.WriteString("[%mate]")
	}
	cmd := func(name, value string) {
		b.WriteString("[%")
		b.WriteString(name)
		b.WriteByte(' ')
		b.WriteString(escapeCommandValue(value))
		b.WriteByte(']')
	}
	cmd("depth", strconv.Itoa(int(e.Depth)))
	cmd("engine", e.Engine)
	cmd("setting", e.Setting)
	cmd("version", e.EngineVersion)
	if e.BestMove != nil {
		cmd("best", *e.BestMove)
	}
	cmd("pv", e.PV)
	cmd("nodes", strconv.FormatInt(e.Nodes, 10))
	cmd("time", strconv.Itoa(int(e.TimeMS)))
	if !e.EvaluatedAt.IsZero() {
		cmd("at", e.EvaluatedAt.UTC().Format(time.RFC3339Nano))
	}
	return b.String()
}

// ParseEvalComment reads a comment written by FormatEvalComment (or any
// comment with an [%eval N] command). ok is false when the comment has no
// %eval; err reports a malformed value of a known command. whiteToMove is
// the side to move of the position.
func ParseEvalComment(c string, whiteToMove bool) (e Evaluation, ok bool, err error) {
	if !strings.Contains(c, "[%eval") {
		return e, false, nil
	}
	e.Engine = "pdn"
	haveEval := false
	for rest := c; ; {
		i := strings.Index(rest, "[%")
		if i < 0 {
			break
		}
		rest = rest[i+2:]
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			break
		}
		body := rest[:j]
		rest = rest[j+1:]
		name, raw, _ := strings.Cut(body, " ")
		value, derr := unescapeCommandValue(raw)
		if derr != nil {
			return e, true, fmt.Errorf("[%%%s]: %w", name, derr)
		}
		switch name {
		case "eval":
			s, perr := parseHundredths(value)
			if perr != nil {
				return e, true, fmt.Errorf("[%%eval %s]: %w", raw, perr)
			}
			e.Score, haveEval = s, true
		case "mate":
			e.Mate = true
		case "depth":
			n, perr := strconv.ParseInt(value, 10, 32)
			if perr != nil {
				return e, true, fmt.Errorf("[%%depth %s]: %w", raw, perr)
			}
			e.Depth = int32(n)
		case "engine":
			e.Engine = value
		case "setting":
			e.Setting = value
		case "version":
			e.EngineVersion = value
		case "best":
			v := value
			e.BestMove = &v
		case "pv":
			e.PV = value
		case "nodes":
			n, perr := strconv.ParseInt(value, 10, 64)
			if perr != nil {
				return e, true, fmt.Errorf("[%%nodes %s]: %w", raw, perr)
			}
			e.Nodes = n
		case "time":
			n, perr := strconv.ParseInt(value, 10, 32)
			if perr != nil {
				return e, true, fmt.Errorf("[%%time %s]: %w", raw, perr)
			}
			e.TimeMS = int32(n)
		case "at":
			t, perr := time.Parse(time.RFC3339Nano, value)
			if perr != nil {
				return e, true, fmt.Errorf("[%%at %s]: %w", raw, perr)
			}
			e.EvaluatedAt = t
		}
	}
	if !haveEval {
		return e, false, nil
	}
	if !whiteToMove {
		e.Score = -e.Score
	}
	return e, true, nil
}

// formatHundredths writes s/100 with two decimals: 25 -> 0.25, -300 -> -3.00.
func formatHundredths(s int32) string {
	v := int64(s)
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	frac := v % 100
	f := strconv.FormatInt(frac, 10)
	if frac < 10 {
		f = "0" + f
	}
	return sign + strconv.FormatInt(v/100, 10) + "." + f
}

// parseHundredths reads a score in men ("0.25", "-3", "+1.5") as hundredths.
func parseHundredths(s string) (int32, error) {
	f, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
	if err != nil {
		return 0, err
	}
	h := math.Round(f * 100)
	if math.IsNaN(h) || h > math.MaxInt32 || h < math.MinInt32 {
		return 0, fmt.Errorf("score %q out of range", s)
	}
	return int32(h), nil
}

func escapeCommandValue(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if mustEscape(s, i) {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if mustEscape(s, i) {
			b.WriteByte('%')
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&15])
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func mustEscape(s string, i int) bool {
	switch c := s[i]; {
	case c == '%', c == '[', c == ']', c == '{', c == '}', c == '"', c < 0x20, c == 0x7f:
		return true
	case c == ' ':
		return i == 0 || i == len(s)-1 || s[i-1] == ' '
	}
	return false
}

func unescapeCommandValue(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("truncated escape in %q", s)
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), nil
}
