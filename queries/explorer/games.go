package explorer

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/queries/export"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// GameRow is a game in a list: the columns of the named query
// games_at_position.
type GameRow struct {
	ID      int64  `json:"id"`
	Variant string `json:"variant"`
	White   string `json:"white"`
	Black   string `json:"black"`
	Event   string `json:"event"`
	Date    string `json:"date"`
	Result  string `json:"result"`
	Plies   int    `json:"plies"`
	Opening string `json:"opening,omitempty"`
}

// namedGamesAt runs the named query games_at_position (what `draughtsdb
// query games_at_position` runs) for a page of the games at p. Its
// answers are kept for Options.CacheTTL: the query lists every game at
// the position before it orders them (half a second for the initial
// position of 1,000,000 games), and the positions near the start, which
// every visit passes through, are the most expensive.
func (s *Server) namedGamesAt(ctx context.Context, tx pgx.Tx, p *position, sources string, limit, offset int) ([]GameRow, error) {
	key := fmt.Sprintf("%s|%d|%d|%d|%s", p.v.Name, p.line.Final.Hash(), limit, offset, sources)
	if rows, ok := s.cache.get(key); ok {
		return rows, nil
	}
	q, err := queries.Lookup("games_at_position")
	if err != nil {
		return nil, err
	}
	res, err := queries.RunTx(ctx, tx, q, map[string]string{
		"hash": hashText(p.line.Final.Hash()), "variant": p.v.Name, "source": sources,
		"limit": strconv.Itoa(limit), "offset": strconv.Itoa(offset)})
	if err != nil {
		return nil, err
	}
	rows, err := gameRows(res)
	if err == nil {
		s.cache.put(key, rows)
	}
	return rows, err
}

// pageCache keeps answers for a while (ttl; <= 0: not at all), at most
// maxEntries of them (then it starts again empty): pages of games, and
// filtered trees.
type pageCache[V any] struct {
	mu         sync.Mutex
	ttl        time.Duration
	maxEntries int
	m          map[string]cachedPage[V]
	now        func() time.Time
}

type cachedPage[V any] struct {
	v  V
	at time.Time
}

func (c *pageCache[V]) get(key string) (V, bool) {
	var zero V
	if c.ttl <= 0 {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || c.now().Sub(e.at) >= c.ttl {
		return zero, false
	}
	return e.v, true
}

func (c *pageCache[V]) put(key string, v V) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.maxEntries {
		c.m = map[string]cachedPage[V]{}
	}
	c.m[key] = cachedPage[V]{v: v, at: c.now()}
}

// gameRows reads the named query's rows by column name.
func gameRows(res *queries.Result) ([]GameRow, error) {
	idx := map[string]int{}
	for i, c := range res.Columns {
		idx[c] = i
	}
	for _, c := range []string{"id", "variant", "white", "black", "event", "date", "result", "plies", "opening"} {
		if _, ok := idx[c]; !ok {
			return nil, fmt.Errorf("query games_at_position: no column %s", c)
		}
	}
	out := make([]GameRow, 0, len(res.Rows))
	for _, r := range res.Rows {
		id, err := strconv.ParseInt(r[idx["id"]], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("query games_at_position: id %q: %w", r[idx["id"]], err)
		}
		plies, _ := strconv.Atoi(r[idx["plies"]])
		out = append(out, GameRow{ID: id, Variant: r[idx["variant"]], White: r[idx["white"]], Black: r[idx["black"]],
			Event: r[idx["event"]], Date: r[idx["date"]], Result: r[idx["result"]], Plies: plies, Opening: r[idx["opening"]]})
	}
	return out, nil
}

// storedGame is a game that passed a filter, with what the filtered tree
// needs.
type storedGame struct {
	row      GameRow
	ID       int64
	startFEN string
	moves    []byte
	result   int16
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// GamesPage is the answer of /api/games.
type GamesPage struct {
	Variant    string    `json:"variant"`
	FEN        string    `json:"fen"`
	Hash       string    `json:"hash"`
	Name       string    `json:"name,omitempty"`
	Filter     *filter   `json:"filter,omitempty"`
	Games      []GameRow `json:"games"`
	NextCursor string    `json:"next_cursor,omitempty"` // absent on the last page
}

// games answers /api/games: the games that reached the position, newest
// first, a page at a time (the named query games_at_position; with a
// filter, the filtered tree's selection).
func (s *Server) games(ctx context.Context, rq *request) (any, error) {
	p, err := s.positionParam(rq)
	if err != nil {
		return nil, err
	}
	f, err := filterParam(rq)
	if err != nil {
		return nil, err
	}
	sel := sourceParam(rq)
	if err := noSourceWithFilter(sel, f); err != nil {
		return nil, err
	}
	limit, err := rq.intParam("limit", defaultGamesLimit, 1, maxGamesLimit)
	if err != nil {
		return nil, err
	}
	hash := p.line.Final.Hash()
	key := pageKey(p.v, hash, f)
	cur, err := s.parseCursor(rq.get("cursor"), key)
	if err != nil {
		return nil, err
	}
	page := &GamesPage{Variant: p.v.Name, FEN: p.line.Final.FEN(), Hash: hashText(hash)}
	err = s.read(ctx, func(tx pgx.Tx) error {
		var rows []GameRow
		if f.empty() {
			if err := checkSources(ctx, tx, sel); err != nil {
				return err
			}
			if rows, err = s.namedGamesAt(ctx, tx, p, sel, limit+1, cur.offset); err != nil {
				return err
			}
			if len(rows) > limit {
				rows = rows[:limit]
				page.NextCursor = s.cursorText(cursor{offset: cur.offset + limit}, key)
			}
		} else {
			page.Filter = f
			below := cur.below
			if below == 0 {
				below = noBelow
			}
			sel, err := s.selectGames(ctx, tx, p, f, below, limit+1, false, func(h *hit) bool {
				rows = append(rows, h.row)
				return true
			})
			if err != nil {
				return err
			}
			switch {
			case len(rows) > limit:
				rows = rows[:limit]
				page.NextCursor = s.cursorText(cursor{below: rows[limit-1].ID}, key)
			case sel.budget:
				// The scan stopped at its bound: the next page goes on
				// from where it stopped.
				page.NextCursor = s.cursorText(cursor{below: sel.below}, key)
			}
		}
		notes, err := positionNotes(ctx, tx, []rules.Position{p.line.Final})
		if err != nil {
			return err
		}
		if n := notes[hash]; n.name != nil {
			page.Name = *n.name
		}
		page.Games = rows
		return nil
	})
	if err != nil {
		return nil, err
	}
	if page.Games == nil {
		page.Games = []GameRow{}
	}
	return page, nil
}

// Annotation is an engine's class of a move (move_annotations).
type Annotation struct {
	Engine  string `json:"engine"`
	Setting string `json:"setting"`
	Loss    int    `json:"loss"` // hundredths of a man
	Class   string `json:"class"`
}

// GameMove is one ply of a game.
type GameMove struct {
	Ply       int    `json:"ply"`
	Side      string `json:"side"` // who played it
	Move      string `json:"move"` // the variant's notation, full path only when needed
	Numeric   string `json:"numeric"`
	Algebraic string `json:"algebraic"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	Captured  []int  `json:"captured"`
	FEN       string `json:"fen"` // after the move
	// Eval is the mean evaluation of the position after the move, in men
	// from White's view; null when there is none.
	Eval      *float64 `json:"eval"`
	EvalCount int      `json:"eval_count,omitempty"`
	Name      string   `json:"name,omitempty"` // the ballot the move reaches
	// Class is the worst class the engines gave the move (ok,
	// inaccuracy, mistake, blunder), "" when none did.
	Class       string       `json:"class,omitempty"`
	Annotations []Annotation `json:"annotations,omitempty"`
	// What the author wrote at the move (games.annotations): its strength
	// mark, NAGs, comments and the variations that are alternatives to it,
	// each verified one with the position after each of its moves.
	export.NoteJSON
}

// GameAnswer is the answer of /api/game/{id}.
type GameAnswer struct {
	ID      int64             `json:"id"`
	Variant string            `json:"variant"`
	Tags    map[string]string `json:"tags"` // every tag, as the PDN writes them
	White   string            `json:"white"`
	Black   string            `json:"black"`
	Event   string            `json:"event"`
	Date    string            `json:"date"`
	Result  string            `json:"result"`
	// ResultProven is the result the final position proves (the side to
	// move has no move the game allows), "*" where it proves none, "" for
	// a game imported before draughtsdb kept it.
	ResultProven string `json:"result_proven"`
	// Comments are the author's comments before the first move.
	Comments  []string   `json:"comments,omitempty"`
	Plies     int        `json:"plies"`
	StartFEN  string     `json:"start_fen"`
	StartEval *float64   `json:"start_eval"`
	Source    string     `json:"source"`
	Ordinal   int        `json:"ordinal"`
	Warnings  []string   `json:"warnings,omitempty"`
	Moves     []GameMove `json:"moves"`
	PDN       string     `json:"pdn"`
}

var classRank = map[string]int{"ok": 1, "inaccuracy": 2, "mistake": 3, "blunder": 4}

// game answers /api/game/{id}: the stored game decoded (codec.Decode),
// with the evaluations of its positions and the classes of its moves.
func (s *Server) game(ctx context.Context, rq *request) (any, error) {
	idText := rq.r.PathValue("id")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return nil, badRequest("game id %s: want a positive integer", quote(idText))
	}
	var ans *GameAnswer
	err = s.read(ctx, func(tx pgx.Tx) error {
		sg, ok, err := schema.ViewGame(ctx, tx, id)
		if err != nil {
			return err
		}
		if !ok {
			return notFound("no game %d", id)
		}
		v, err := codec.VariantByID(sg.Variant)
		if err != nil {
			return fmt.Errorf("game %d: %w", id, err)
		}
		dg, err := codec.Decode(v, deref(sg.StartFEN), sg.Moves)
		if err != nil {
			return fmt.Errorf("game %d: stored moves do not decode: %w", id, err)
		}
		ann, err := codec.DecodeAnnotations(sg.Annotations, len(dg.Moves))
		if err != nil {
			return fmt.Errorf("game %d: stored annotations do not decode: %w", id, err)
		}
		ans = &GameAnswer{ID: id, Variant: v.Name, White: deref(sg.White), Black: deref(sg.Black), Event: deref(sg.Event),
			Date: sg.Date, Result: codec.ResultOf(sg.Result).Format(v), Plies: int(sg.Plies), StartFEN: dg.Start().FEN(),
			Source: sg.Source, Ordinal: int(sg.Ordinal), Warnings: sg.Warnings, Moves: make([]GameMove, 0, len(dg.Moves)),
			Comments: ann.Comments}
		if sg.ResultProven != nil {
			ans.ResultProven = codec.ResultOf(*sg.ResultProven).Format(v)
		}
		notesByPly := map[int]export.NoteJSON{}
		if j := export.Annotations(ann); j != nil {
			for _, p := range j.Plies {
				placeVariations(v, dg.Positions[p.Ply-1], p.Variations)
				notesByPly[p.Ply] = p.NoteJSON
			}
		}

		notes, err := positionNotes(ctx, tx, dg.Positions)
		if err != nil {
			return err
		}
		ans.StartEval = notes[dg.Start().Hash()].eval
		byPly := map[int][]Annotation{}
		classes, err := schema.GameMoveClasses(ctx, tx, id)
		if err != nil {
			return err
		}
		for _, c := range classes {
			byPly[c.Ply] = append(byPly[c.Ply], Annotation{Engine: c.Engine, Setting: c.Setting, Loss: c.Loss, Class: c.Class})
		}
		var legal []rules.Move
		for i := range dg.Moves {
			m, before, after := &dg.Moves[i], &dg.Positions[i], &dg.Positions[i+1]
			legal = before.LegalMoves(legal[:0])
			amb := rules.Ambiguous(legal, m)
			gm := GameMove{Ply: i + 1, Side: colorName(before.SideToMove()),
				Move:      rules.FormatMove(v, m, v.DefaultNotation, amb),
				Numeric:   rules.FormatMove(v, m, rules.Numeric, true),
				Algebraic: rules.FormatMove(v, m, rules.Algebraic, true),
				From:      m.From(), To: m.To(), Captured: append([]int{}, m.Captured(nil)...),
				FEN: after.FEN(), Annotations: byPly[i+1], NoteJSON: notesByPly[i+1]}
			n := notes[after.Hash()]
			gm.Eval, gm.EvalCount = n.eval, n.evalCount
			if n.name != nil {
				gm.Name = *n.name
			}
			for _, a := range gm.Annotations {
				if classRank[a.Class] > classRank[gm.Class] {
					gm.Class = a.Class
				}
			}
			ans.Moves = append(ans.Moves, gm)
		}
		ans.Tags, ans.PDN, err = gamePDN(v, &dg, ans, ann, sg.Event, sg.Site, sg.Round, sg.Tags, sg.StartFEN)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ans, nil
}

// placeVariations adds to the moves of each verified variation, which
// starts from before, the position after it and its squares, nested
// variations too, so that the viewer can step into them. A variation that
// does not replay (an unverified one) keeps only its texts.
func placeVariations(v *rules.Variant, before rules.Position, vars []export.VariationJSON) {
	for k := range vars {
		vr := &vars[k]
		if !vr.Verified {
			continue
		}
		texts := make([]string, len(vr.Moves))
		for j := range vr.Moves {
			texts[j] = vr.Moves[j].Move
		}
		line, err := replay.PlayLine(v, before.FEN(), texts)
		if err != nil || len(line.Moves) != len(texts) {
			continue
		}
		pos := line.Start
		for j := range vr.Moves {
			m, vm := &line.Moves[j], &vr.Moves[j]
			placeVariations(v, pos, vm.Variations)
			pos.Play(m)
			vm.FEN, vm.From, vm.To, vm.Captured = pos.FEN(), m.From(), m.To(), append([]int{}, m.Captured(nil)...)
		}
	}
}

// gamePDN writes the game as normalised PDN laid out by export.GamePDN
// with its annotations (what `draughtsdb export --format pdn` writes,
// without evaluations), and returns its tags as a map too.
func gamePDN(v *rules.Variant, dg *codec.Game, a *GameAnswer, ann *codec.Annotations, event, site, round, tags, startFEN *string) (map[string]string, string, error) {
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	texts := make([]string, len(dg.Moves))
	for i := range dg.Moves {
		texts[i] = rules.FormatMove(v, &dg.Moves[i], v.DefaultNotation, true)
	}
	h := export.Header{Event: event, Site: site, Date: a.Date, Round: round, White: str(a.White), Black: str(a.Black),
		Result: a.Result, Tags: tags, StartFEN: startFEN}
	g := export.GamePDN(v, h, dg.Start().SideToMove(), texts, nil)
	g.Comments = ann.Attach(g.Moves)
	all := make(map[string]string, len(g.Tags))
	for _, t := range g.Tags {
		all[t.Name] = t.Value
	}
	var buf bytes.Buffer
	if err := pdn.NewWriter(&buf).WriteGame(g); err != nil {
		return nil, "", fmt.Errorf("game %d: writing PDN: %w", a.ID, err)
	}
	return all, strings.TrimRight(buf.String(), "\n") + "\n", nil
}
