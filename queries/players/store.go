package players

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/draughtsdb/draughtsdb/schema"
)

// DB is what the package needs of a connection, pool or transaction:
// the store's reads (schema.Querier) and its writes of player_links.
type DB interface {
	schema.Querier
	schema.Execer
}

// Record is a player's results: games, wins, draws, losses and the score
// (percent of the points in finished games; a game against oneself gives
// half its points and is neither a win nor a loss).
type Record struct {
	Games, Wins, Draws, Losses, Halves, Finished int
}

// Score is the percentage of points in finished games, -1 for none.
func (r Record) Score() float64 {
	if r.Finished == 0 {
		return -1
	}
	return 100 * (float64(r.Wins) + 0.5*float64(r.Draws+r.Halves)) / float64(r.Finished)
}

// Percent is Score rounded to a tenth, nil when no game is finished: the
// form the CLI's JSON and the explorer give.
func (r Record) Percent() *float64 {
	s := r.Score()
	if s < 0 {
		return nil
	}
	s = math.Round(s*10) / 10
	return &s
}

// add counts one game from the player's side: as white, as black or both.
func (r *Record) add(result int16, asWhite, asBlack bool, n int) {
	r.Games += n
	switch {
	case result == 2:
		r.Draws += n
		r.Finished += n
	case result != 1 && result != 3:
		return
	case asWhite && asBlack:
		r.Halves += n
		r.Finished += n
	case asWhite == (result == 1):
		r.Wins += n
		r.Finished += n
	default:
		r.Losses += n
		r.Finished += n
	}
}

// Entry is one player of the list: identity, record, years and rating.
type Entry struct {
	*Player
	Record
	First, Last string // years, "" when no game has a known one
	// Rating is the player's rating in their latest rated game (by game
	// date, then id: RatingPoint order), nil when no game gives one;
	// RatingDate is that game's date.
	Rating     *int
	RatingDate string
}

// Load reads every spelling with its games and the user's links and
// groups them.
func Load(ctx context.Context, db DB) ([]*Player, error) { return load(ctx, db, true) }

// LoadNames is Load without the games of each spelling (all 0), which
// grouping does not need: it reads the players table alone. Count fills
// in the games of one player's spellings.
func LoadNames(ctx context.Context, db DB) ([]*Player, error) { return load(ctx, db, false) }

// Count sets the games of p's spellings and puts the most used first.
func Count(ctx context.Context, db DB, p *Player) error {
	n, err := schema.PlayerGameCounts(ctx, db, p.IDs())
	if err != nil {
		return err
	}
	for i := range p.Spellings {
		p.Spellings[i].Games = n[p.Spellings[i].ID]
	}
	p.sortSpellings()
	return nil
}

func load(ctx context.Context, db DB, games bool) ([]*Player, error) {
	rows, err := schema.PlayerSpellings(ctx, db, games)
	if err != nil {
		return nil, err
	}
	sp := make([]Spelling, len(rows))
	for i, r := range rows {
		sp[i] = Spelling{ID: r.ID, Name: r.Name, Games: r.Games}
	}
	sort.Slice(sp, func(a, b int) bool { return sp[a].ID < sp[b].ID })
	links, err := Links(ctx, db)
	if err != nil {
		return nil, err
	}
	return Group(sp, links), nil
}

// Links returns the user's aliases and splits.
func Links(ctx context.Context, db DB) ([]Link, error) {
	rows, err := schema.PlayerLinks(ctx, db)
	if err != nil {
		return nil, err
	}
	links := make([]Link, len(rows))
	for i, r := range rows {
		links[i] = Link{Name: r.Name, Target: r.Target}
	}
	return links, nil
}

// List returns every player with a record, most games first; search, when
// set, keeps the players one of whose spellings contains it (folded: case
// and diacritics do not count).
func List(ctx context.Context, db DB, search string) ([]Entry, error) {
	ps, err := Load(ctx, db)
	if err != nil {
		return nil, err
	}
	group := map[int32]int{}
	var entries []Entry
	want := fold(strings.TrimSpace(search))
	for _, p := range ps {
		if want != "" && !p.matches(want) {
			continue
		}
		for _, id := range p.IDs() {
			group[id] = len(entries)
		}
		entries = append(entries, Entry{Player: p})
	}
	err = schema.ForEachPlayerPairing(ctx, db, func(pr *schema.PlayerPairing) error {
		gw, okw := lookup(group, pr.White)
		gb, okb := lookup(group, pr.Black)
		if okw && okb && gw == gb {
			entries[gw].add(pr.Result, true, true, pr.Games)
			entries[gw].years(pr.First, pr.Last)
			return nil
		}
		if okw {
			entries[gw].add(pr.Result, true, false, pr.Games)
			entries[gw].years(pr.First, pr.Last)
		}
		if okb {
			entries[gb].add(pr.Result, false, true, pr.Games)
			entries[gb].years(pr.First, pr.Last)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := latestRatings(ctx, db, entries, group); err != nil {
		return nil, err
	}
	return entries, nil
}

func lookup(group map[int32]int, id *int32) (int, bool) {
	if id == nil {
		return 0, false
	}
	g, ok := group[*id]
	return g, ok
}

func (e *Entry) years(first, last *string) {
	if first != nil && (e.First == "" || *first < e.First) {
		e.First = *first
	}
	if last != nil && *last > e.Last {
		e.Last = *last
	}
}

func (p *Player) matches(folded string) bool {
	for _, s := range p.Spellings {
		if strings.Contains(fold(s.Name), folded) {
			return true
		}
	}
	return false
}

// ErrUnknownPlayer is returned for a name no spelling matches.
var ErrUnknownPlayer = errors.New("no such player")

// UnknownError names the closest players to a name that matched none.
type UnknownError struct {
	Name    string
	Closest []string
}

func (e *UnknownError) Error() string {
	if len(e.Closest) == 0 {
		return fmt.Sprintf("no player named %q (the database has no players)", e.Name)
	}
	return fmt.Sprintf("no player named %q; the closest: %s", e.Name, strings.Join(e.Closest, "; "))
}

func (e *UnknownError) Unwrap() error { return ErrUnknownPlayer }

// Find returns the player that name (any spelling, case and diacritics
// folded, or a name with the same identity key) belongs to.
func Find(ps []*Player, name string) (*Player, error) {
	for _, p := range ps {
		for _, s := range p.Spellings {
			if s.Name == name {
				return p, nil
			}
		}
	}
	f := fold(strings.TrimSpace(name))
	key := Identify(name).Key()
	var byKey []*Player
	for _, p := range ps {
		for _, s := range p.Spellings {
			if fold(s.Name) == f {
				return p, nil
			}
		}
		for _, s := range p.Spellings {
			if Identify(s.Name).Key() == key {
				byKey = append(byKey, p)
				break
			}
		}
	}
	if len(byKey) == 1 {
		return byKey[0], nil
	}
	return nil, &UnknownError{Name: name, Closest: closest(ps, name, 5)}
}

// closest returns the main names of the n players whose spellings are
// nearest to name by edit distance of the folded texts.
func closest(ps []*Player, name string, n int) []string {
	f := fold(name)
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, p := range ps {
		best := -1
		for _, s := range p.Spellings {
			d := distance(f, fold(s.Name))
			if sub := Identify(s.Name).Surname; sub != "" && strings.Contains(f, sub) {
				d = min(d, len(f)-len(sub))
			}
			if best < 0 || d < best {
				best = d
			}
		}
		cs = append(cs, cand{p.Name(), best})
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].d < cs[b].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// distance is the Levenshtein distance of a and b in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Alias records that name is target's player; Split that name is a player
// of its own. Both are kept by name, so they survive a re-import.
func Alias(ctx context.Context, db DB, name, target string) error {
	if name == target {
		return fmt.Errorf("players alias: %q is the same name", name)
	}
	return schema.SetPlayerLink(ctx, db, name, target)
}

func Split(ctx context.Context, db DB, name string) error {
	return schema.SetPlayerLink(ctx, db, name, "")
}

// Unlink forgets the user's decision about name.
func Unlink(ctx context.Context, db DB, name string) error {
	return schema.RemovePlayerLink(ctx, db, name)
}

// Detail is a player's page: the record in all, by colour and by year,
// their opponents and their openings (the first two plies) by colour.
type Detail struct {
	Player   *Player
	All      Record
	AsWhite  Record
	AsBlack  Record
	ByYear   map[string]*Record
	Opponent map[string]*Record
	Openings map[string]*Record // "white: 32-28 19-23", "black: ..."
	First    string
	Last     string
	// Ratings are the player's ratings in their rated games, in time
	// order (SortRatings): RatingYears sums them by year, Latest is the
	// current one.
	Ratings []RatingPoint
}

// Show computes the detail of p from its games; all, the players Load
// returned, names the opponents by their main spelling.
func Show(ctx context.Context, db DB, p *Player, all []*Player) (*Detail, error) {
	mainName := map[string]string{}
	for _, q := range all {
		for _, s := range q.Spellings {
			mainName[s.Name] = q.Name()
		}
	}
	d := &Detail{Player: p, ByYear: map[string]*Record{}, Opponent: map[string]*Record{}, Openings: map[string]*Record{}}
	get := func(m map[string]*Record, k string) *Record {
		r := m[k]
		if r == nil {
			r = &Record{}
			m[k] = r
		}
		return r
	}
	err := schema.ForEachPlayerGame(ctx, db, p.IDs(), func(g *schema.PlayerGame) error {
		result, asWhite, asBlack, year := g.Result, g.AsWhite, g.AsBlack, g.Year
		if g.Rating != nil {
			d.Ratings = append(d.Ratings, RatingPoint{Game: g.ID, Date: g.Date, Rating: int(*g.Rating)})
		}
		d.All.add(result, asWhite, asBlack, 1)
		if asWhite {
			d.AsWhite.add(result, true, false, 1)
			get(d.Openings, g.Variant+" as white: "+g.Opening).add(result, true, false, 1)
		}
		if asBlack {
			d.AsBlack.add(result, false, true, 1)
			get(d.Openings, g.Variant+" as black: "+g.Opening).add(result, false, true, 1)
		}
		if len(year) == 4 && year[0] >= '0' && year[0] <= '9' && !strings.Contains(year, "?") {
			get(d.ByYear, year).add(result, asWhite, asBlack, 1)
			if d.First == "" || year < d.First {
				d.First = year
			}
			if year > d.Last {
				d.Last = year
			}
		}
		if !(asWhite && asBlack) {
			o := "?"
			if g.Opponent != nil {
				o = *g.Opponent
				if m, ok := mainName[o]; ok {
					o = m
				}
			}
			get(d.Opponent, o).add(result, asWhite, asBlack, 1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	SortRatings(d.Ratings)
	return d, nil
}
