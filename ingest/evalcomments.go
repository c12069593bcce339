package ingest

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5"
)

// Evaluation comments: how an engine evaluation of a position travels in
// PDN, so that `draughtsdb export --format pdn` and `draughtsdb import`
// carry table evaluations (schema/migrations/0003_analysis.sql) exactly.
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
// Evaluations are keyed (variant, hash, engine, setting): an import stores
// a comment's evaluation unless that key is already in the table (ON
// CONFLICT DO NOTHING), in the transaction of the game's batch.

// Evaluation is one row of table evaluations.
type Evaluation struct {
	Variant       int16
	Hash          int64
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
// %eval; err reports a malformed value of a known command. Variant and
// Hash are left zero; whiteToMove is the side to move of the position.
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

// gameEvaluations collects the evaluation comments of a verified game
// (see the comment at the top of this file). It runs on the replay
// workers; a game without comments costs one pass over its moves.
func gameEvaluations(g *replay.Game) []Evaluation {
	var out []Evaluation
	variant := int16(g.Variant.GameType)
	add := func(comments []string, hash uint64, side rules.Color) {
		for _, c := range comments {
			e, ok, err := ParseEvalComment(c, side == rules.White)
			if !ok || err != nil {
				continue // not an evaluation, or a malformed one: left as a comment
			}
			e.Variant, e.Hash = variant, int64(hash)
			out = append(out, e)
		}
	}
	if len(g.PDN.Comments) > 0 {
		add(g.PDN.Comments, g.Start.Hash(), g.Start.SideToMove())
	}
	side := g.Start.SideToMove()
	setup := 0
	for i := range g.Moves {
		if setup < len(g.Setups) && g.Setups[setup].BeforePly == i+1 {
			side = g.Setups[setup].Position.SideToMove()
			setup++
		}
		side = side.Opponent() // to move after ply i+1
		if i >= len(g.Tokens) || i >= len(g.Hashes) {
			continue
		}
		src := &g.PDN.Moves[g.Tokens[i]]
		if src.Note != nil && len(src.Note.Comments) > 0 {
			add(src.Note.Comments, g.Hashes[i], side)
		}
	}
	return out
}

// writeEvaluations stores the evaluation comments of the batch's accepted
// games (duplicates included: an evaluation belongs to a position, not to
// a game) in the batch's transaction; a key already present is kept.
func writeEvaluations(ctx context.Context, tx pgx.Tx, items []Item) error {
	var (
		vs                 []int16
		hs, nodes          []int64
		engines, settings  []string
		scores, depths, ts []int32
		mates              []bool
		bests              []*string
		pvs, versions      []string
		ats                []*time.Time
	)
	for i := range items {
		if !items[i].Accepted {
			continue
		}
		st, ok := items[i].Prepared.(*stored)
		if !ok {
			continue
		}
		for j := range st.evals {
			e := &st.evals[j]
			vs, hs = append(vs, e.Variant), append(hs, e.Hash)
			engines, settings = append(engines, e.Engine), append(settings, e.Setting)
			scores, mates, depths = append(scores, e.Score), append(mates, e.Mate), append(depths, e.Depth)
			bests, pvs = append(bests, e.BestMove), append(pvs, e.PV)
			nodes, ts, versions = append(nodes, e.Nodes), append(ts, e.TimeMS), append(versions, e.EngineVersion)
			var at *time.Time
			if !e.EvaluatedAt.IsZero() {
				t := e.EvaluatedAt
				at = &t
			}
			ats = append(ats, at)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at)
		SELECT v, h, e, s, sc, m, d, b, p, n, t, ver, coalesce(at, now())
		FROM unnest($1::smallint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::bool[], $7::int[],
		            $8::text[], $9::text[], $10::bigint[], $11::int[], $12::text[], $13::timestamptz[])
		     AS x(v, h, e, s, sc, m, d, b, p, n, t, ver, at)
		ON CONFLICT (variant, hash, engine, setting) DO NOTHING`,
		vs, hs, engines, settings, scores, mates, depths, bests, pvs, nodes, ts, versions, ats)
	if err != nil {
		return fmt.Errorf("evaluations from comments: %w", err)
	}
	return nil
}
