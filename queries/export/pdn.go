package export

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// writePDN writes the selected games as normalised PDN (pdn.Writer: PDN
// 3.0, UTF-8): the standard tags present (Event, Site, Date, Round, White,
// Black; Result always), the other tags in name order, GameType in full
// form, FEN when the game does not start from the initial position; the
// moves as in the games export with move numbers; and every evaluation of
// every position of the game (passing --engine/--setting) as a comment in
// the format of ingest/pdn/evalcomment.go: before the first move for the
// start position, after a move for the position it leads to, before the
// author's annotations (comments, strength marks, NAGs and variations, as
// imported). Importing the file gives the same games (the same
// moves_hash), annotations and evaluations.
func (g gamesSource) writePDN(ctx context.Context, s *session, w io.Writer, progress func()) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pw := pdn.NewWriter(bw)
	withEvals := s.hasEvals
	prepare := func(r *gameRec) {
		if withEvals {
			replayGame(r, false)
		} else if decode(r) {
			r.texts = strings.Fields(string(appendMovesText(nil, r.v, r.Moves)))
		}
		if r.err == nil {
			decodeAnnotations(r)
		}
	}
	var lookup func([]gameRec) (any, error)
	if withEvals {
		lookup = func(games []gameRec) (any, error) { return s.allEvals(ctx, batchKeys(games)) }
	}
	err := streamGames(ctx, s, &g.o.Filter, g.o.Workers, prepare, lookup, func(games []gameRec, extra any) error {
		evals, _ := extra.(map[posKey][]pdn.Evaluation)
		for i := range games {
			r := &games[i]
			if r.err != nil {
				return undecodable(r)
			}
			if err := pw.WriteGame(toPDN(r, evals)); err != nil {
				return err
			}
			progress()
		}
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// toPDN lays out a stored game with the evaluations of its positions and
// its annotations (the author's comments, strength marks, NAGs and
// variations, as imported). At each place the evaluations come first, in
// the export's own form, then the author's comments as written: a
// re-import stores the evaluations as they were (the first comment of an
// evaluation key counts) and the author's comments as annotations.
func toPDN(r *gameRec, evals map[posKey][]pdn.Evaluation) *pdn.Game {
	var comments func(ply int) []string
	if evals != nil {
		comments = func(ply int) []string {
			if ply >= len(r.hashes) {
				return nil
			}
			es := evals[posKey{r.Variant, int64(r.hashes[ply])}]
			if len(es) == 0 {
				return nil
			}
			out := make([]string, len(es))
			for i := range es {
				out[i] = pdn.FormatEvalComment(&es[i], r.sides[ply] == rules.White)
			}
			return out
		}
	}
	h := Header{Event: r.Event, Site: r.Site, Date: r.Date, Round: r.Round, White: r.White, Black: r.Black,
		Result: codec.ResultOf(r.Result).Format(r.v), Tags: r.Tags, StartFEN: r.StartFEN}
	g := GamePDN(r.v, h, r.start.SideToMove(), r.texts, comments)
	if pre := r.ann.Attach(g.Moves); len(pre) > 0 {
		g.Comments = append(g.Comments, pre...)
	}
	return g
}

// Header holds what a stored game's PDN tags come from (nil or "": no tag).
type Header struct {
	Event, Site, Round, White, Black *string
	Date, Result                     string
	Tags                             *string // games.tags, a JSON object
	StartFEN                         *string
}

// GamePDN lays out a stored game as normalised PDN, as `export --format
// pdn` and the explorer's /api/game write it: the standard tags, the other
// tags in name order, GameType in full form (a Variant tag for a variant
// without one, Killer, which the import reads back), FEN when set, then the
// moves as given (texts, in the variant's notation), numbered from first,
// the side to move at the start. comments, when not nil, gives the
// comments of the position after ply (0: the start, before the first
// move).
func GamePDN(v *rules.Variant, h Header, first rules.Color, texts []string, comments func(ply int) []string) *pdn.Game {
	g := &pdn.Game{Result: h.Result}
	tag := func(name string, value *string) {
		if value != nil {
			g.Tags = append(g.Tags, pdn.Tag{Name: name, Value: *value})
		}
	}
	var other map[string]string
	if h.Tags != nil && json.Unmarshal([]byte(*h.Tags), &other) != nil {
		other = nil
	}
	date := h.Date
	if d, ok := other["Date"]; ok {
		date = d // the Date tag as written, which the date column could not hold
	}
	tag("Event", h.Event)
	tag("Site", h.Site)
	tag("Date", &date)
	tag("Round", h.Round)
	tag("White", h.White)
	tag("Black", h.Black)
	tag("Result", &h.Result)
	if other != nil {
		names := make([]string, 0, len(other))
		for n := range other {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if n == "Variant" && v.GameType == 0 || n == "Date" {
				continue // written above or below
			}
			g.Tags = append(g.Tags, pdn.Tag{Name: n, Value: other[n]})
		}
	}
	if v.GameType == 0 {
		// No PDN GameType (Killer): a Variant tag naming it, which the
		// import reads ("GameType 0" it would refuse); the game's own tag
		// when it names the variant.
		name := v.Name
		if tv, err := rules.VariantByName(other["Variant"]); err == nil && tv == v {
			name = other["Variant"]
		}
		tag("Variant", &name)
	} else {
		gt := pdn.FullGameType(strconv.Itoa(v.GameType))
		tag("GameType", &gt)
	}
	tag("FEN", h.StartFEN)

	if comments != nil {
		g.Comments = comments(0)
	}
	side := first
	number := 1
	g.Moves = make([]pdn.Move, len(texts))
	for i, t := range texts {
		m := &g.Moves[i]
		m.Text = t
		switch {
		case side == v.FirstToMove:
			m.Number = int32(number)
		case i == 0:
			m.Number, m.Black = int32(number), true
		}
		if side != v.FirstToMove {
			number++
		}
		side = side.Opponent()
		if comments != nil {
			if c := comments(i + 1); c != nil {
				m.Note = &pdn.Note{Comments: c}
			}
		}
	}
	return g
}
