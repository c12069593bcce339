package players

import (
	"context"
	"sort"

	"github.com/draughtsdb/draughtsdb/schema"
)

// RatingPoint is a player's rating in one game (games.white_rating or
// black_rating, from the WhiteRating or WhiteElo tags and their Black
// twins).
type RatingPoint struct {
	Game   int64
	Date   string // as stored: YYYY.MM.DD with ?? for unknown parts
	Rating int
}

// knownYear says whether a stored date has a year.
func knownYear(date string) bool {
	if len(date) < 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if date[i] < '0' || date[i] > '9' {
			return false
		}
	}
	return true
}

// later orders rated games in time: by date, a game without a known year
// before every dated one (its place in time is unknown, so it is never
// "latest" while a dated game is there), unknown months and days after
// known ones (as export sorts them: "1995.??.??" is somewhere in 1995, at
// the latest its end), then by id (the order of import).
func later(a, b RatingPoint) bool {
	if ka, kb := knownYear(a.Date), knownYear(b.Date); ka != kb {
		return ka
	}
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	return a.Game > b.Game
}

// SortRatings puts points in time order, earliest first (later's order).
func SortRatings(points []RatingPoint) {
	sort.SliceStable(points, func(i, j int) bool { return later(points[j], points[i]) })
}

// RatingYear is a player's ratings in one year: the games with a rating,
// the lowest, the highest and the last (by date, then id).
type RatingYear struct {
	Year           string
	Games          int
	Min, Max, Last int
}

// RatingYears sums time-ordered points (SortRatings) by year, in year
// order; points without a known year are left out.
func RatingYears(points []RatingPoint) []RatingYear {
	var out []RatingYear
	for _, p := range points {
		if !knownYear(p.Date) {
			continue
		}
		y := p.Date[:4]
		if n := len(out); n == 0 || out[n-1].Year != y {
			out = append(out, RatingYear{Year: y, Min: p.Rating, Max: p.Rating})
		}
		r := &out[len(out)-1]
		r.Games++
		r.Min, r.Max, r.Last = min(r.Min, p.Rating), max(r.Max, p.Rating), p.Rating
	}
	return out
}

// Latest is the last of time-ordered points, nil for none.
func Latest(points []RatingPoint) *RatingPoint {
	if len(points) == 0 {
		return nil
	}
	return &points[len(points)-1]
}

// latestRatings sets the Rating of each entry: its spellings' latest
// rated game's rating. group maps a players id to its entry.
func latestRatings(ctx context.Context, db DB, entries []Entry, group map[int32]int) error {
	best := make([]*RatingPoint, len(entries))
	err := schema.ForEachLatestPlayerRating(ctx, db, func(r *schema.PlayerRating) error {
		i, ok := group[r.Player]
		if !ok {
			return nil
		}
		p := RatingPoint{Game: r.Game, Date: r.Date, Rating: r.Rating}
		if best[i] == nil || later(p, *best[i]) {
			best[i] = &p
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, p := range best {
		if p != nil {
			r := p.Rating
			entries[i].Rating, entries[i].RatingDate = &r, p.Date
		}
	}
	return nil
}
