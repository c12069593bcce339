package explorer

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
)

// Limits on what a request may ask.
const (
	maxParamBytes = 1000 // any one parameter but moves
	maxFENBytes   = 500
	maxMovesBytes = 10000
	maxPlies      = 1000
	maxMoveBytes  = 64
	maxNameBytes  = 200
	// Pages.
	defaultGamesLimit   = 20
	maxGamesLimit       = 100
	maxGamesOffset      = 1_000_000
	defaultPlayersLimit = 20
	maxPlayersLimit     = 50
	topGames            = 5
)

var (
	positionParams = []string{"variant", "moves", "fen"}
	filterParams   = []string{"player", "color", "event", "from", "to", "min_rating"}
)

// request is a request's checked query string.
type request struct {
	r *http.Request
	q map[string]string
}

// parseRequest reads the query string: well formed, only the allowed
// parameters, each at most once, valid UTF-8 without control characters,
// not too long.
func parseRequest(r *http.Request, allowed []string) (*request, error) {
	vals, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, badRequest("query string: %v", err)
	}
	rq := &request{r: r, q: map[string]string{}}
	for k, vs := range vals {
		if !slices.Contains(allowed, k) {
			if len(allowed) == 0 {
				return nil, badRequest("unknown parameter %s: this endpoint takes none", quote(k))
			}
			return nil, badRequest("unknown parameter %s (this endpoint takes %s)", quote(k), strings.Join(allowed, ", "))
		}
		if len(vs) > 1 {
			return nil, badRequest("parameter %s given %d times; give it once", k, len(vs))
		}
		v := vs[0]
		limit := maxParamBytes
		if k == "moves" {
			limit = maxMovesBytes
		}
		if len(v) > limit {
			return nil, badRequest("parameter %s is %d bytes long; at most %d", k, len(v), limit)
		}
		if err := checkText(k, v); err != nil {
			return nil, err
		}
		rq.q[k] = v
	}
	return rq, nil
}

// checkText refuses what no stored text holds and PostgreSQL would refuse
// or misread: invalid UTF-8, NUL and other control characters.
func checkText(name, v string) error {
	if !utf8.ValidString(v) {
		return badRequest("parameter %s is not valid UTF-8", name)
	}
	for _, c := range v {
		if unicode.IsControl(c) && c != '\t' && c != '\n' && c != '\r' {
			return badRequest("parameter %s holds the control character %U", name, c)
		}
	}
	return nil
}

func (rq *request) get(name string) string { return rq.q[name] }

// intParam reads an optional integer in [lo, hi].
func (rq *request) intParam(name string, def, lo, hi int) (int, error) {
	s := strings.TrimSpace(rq.q[name])
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("parameter %s=%s: want an integer from %d to %d", name, quote(s), lo, hi)
	}
	return n, nil
}

// variantNames lists the variants for messages.
func variantNames() string {
	var names []string
	for _, v := range rules.Variants() {
		names = append(names, v.Name)
	}
	return strings.Join(names, ", ")
}

// variantParam reads variant (default: the server's).
func (s *Server) variantParam(rq *request) (*rules.Variant, error) {
	name := strings.TrimSpace(rq.get("variant"))
	if name == "" {
		return s.variant, nil
	}
	v, err := rules.VariantByName(name)
	if err != nil {
		return nil, badRequest("variant %s: unknown; one of %s", quote(name), variantNames())
	}
	return v, nil
}

// position is a request's position: the variant, the start (fen or the
// initial position) and the moves played from it, replayed.
type position struct {
	v     *rules.Variant
	fen   string
	moves []string
	line  *replay.Game
}

// positionParam reads variant, fen and moves and plays the line with
// replay.PlayLine, as `draughtsdb openings` does: a move that is not legal
// is a 400 naming the legal moves.
func (s *Server) positionParam(rq *request) (*position, error) {
	v, err := s.variantParam(rq)
	if err != nil {
		return nil, err
	}
	p := &position{v: v, fen: strings.TrimSpace(rq.get("fen"))}
	if len(p.fen) > maxFENBytes {
		return nil, badRequest("fen is %d bytes long; at most %d", len(p.fen), maxFENBytes)
	}
	p.moves = strings.Fields(strings.ReplaceAll(rq.get("moves"), ",", " "))
	if len(p.moves) > maxPlies {
		return nil, badRequest("moves: %d plies; at most %d", len(p.moves), maxPlies)
	}
	for i, m := range p.moves {
		if len(m) > maxMoveBytes {
			return nil, badRequest("moves: ply %d %s is not a move (%d bytes)", i+1, quote(m), len(m))
		}
	}
	p.line, err = replay.PlayLine(v, p.fen, p.moves)
	if err != nil {
		return nil, badRequest("position (%s): %v", v.Name, err)
	}
	return p, nil
}

// filter selects games for a filtered tree or games list. Player is a
// player's exact name (as stored, see /api/players); Color, with Player,
// the colour they had; Event a case-insensitive part of the Event tag;
// From and To bound the date inclusively at the precision given, as
// `draughtsdb export` does. MinRating, when not 0, keeps the games whose
// players are both rated at least that (games.white_rating and
// black_rating: a game with an unrated player is left out), as
// `--min-rating` does on the command line.
type filter struct {
	Player    string `json:"player,omitempty"`
	Color     string `json:"color,omitempty"`
	Event     string `json:"event,omitempty"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	MinRating int    `json:"min_rating,omitempty"`
}

// maxMinRating bounds min_rating: no draughts rating reaches it (the
// import stores at most four digits).
const maxMinRating = 9999

func (f *filter) empty() bool { return *f == filter{} }

// store is f as the store's selections take it.
func (f *filter) store() schema.ExplorerFilter {
	return schema.ExplorerFilter{Player: f.Player, Color: f.Color, Event: f.Event, From: f.From, To: f.To, MinRating: f.MinRating}
}

func filterParam(rq *request) (*filter, error) {
	f := &filter{
		Player: strings.Join(strings.Fields(rq.get("player")), " "),
		Color:  trimLower(rq.get("color")),
		Event:  strings.TrimSpace(rq.get("event")),
	}
	if len(f.Player) > maxNameBytes {
		return nil, badRequest("player is %d bytes long; at most %d", len(f.Player), maxNameBytes)
	}
	if len(f.Event) > maxNameBytes {
		return nil, badRequest("event is %d bytes long; at most %d", len(f.Event), maxNameBytes)
	}
	switch f.Color {
	case "", "white", "black":
	default:
		return nil, badRequest("color %s: want white or black", quote(f.Color))
	}
	if f.Color != "" && f.Player == "" {
		return nil, badRequest("color needs player: it is the colour the player had")
	}
	minRating, err := rq.intParam("min_rating", 0, 0, maxMinRating)
	if err != nil {
		return nil, err
	}
	f.MinRating = minRating
	for _, d := range []struct {
		name string
		v    *string
	}{{"from", &f.From}, {"to", &f.To}} {
		s := strings.TrimSpace(rq.get(d.name))
		if s == "" {
			continue
		}
		v, err := queries.DateBound(s)
		if err != nil {
			return nil, badRequest("%s %s: %v", d.name, quote(s), err)
		}
		*d.v = v
	}
	return f, nil
}

// cursor is the opaque position of a page: the offset into the named
// query's list (unfiltered pages) or the id below which the next page
// starts (filtered pages, which go on by key), signed with the server's
// key (Server.cursorKey, random per process) over the page's key (what it
// pages through: variant, position, filter). A cursor cannot be made up,
// so a deep page costs every page before it; one of another position or
// filter, or of an earlier run of the server, is refused.
type cursor struct {
	offset int
	below  int64
}

// cursorMACBytes is how much of the HMAC-SHA256 a cursor carries.
const cursorMACBytes = 12

func pageKey(v *rules.Variant, hash uint64, f *filter) []byte {
	h := sha256.New()
	h.Write([]byte(v.Name))
	h.Write(binary.BigEndian.AppendUint64(nil, hash))
	for _, s := range []string{f.Player, f.Color, f.Event, f.From, f.To, strconv.Itoa(f.MinRating)} {
		h.Write([]byte{0})
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}

func (s *Server) cursorMAC(payload, key []byte) []byte {
	m := hmac.New(sha256.New, s.cursorKey)
	m.Write(key)
	m.Write(payload)
	return m.Sum(nil)[:cursorMACBytes]
}

func (s *Server) cursorText(c cursor, key []byte) string {
	b := binary.AppendUvarint(nil, uint64(c.offset))
	b = binary.AppendUvarint(b, uint64(c.below))
	return base64.RawURLEncoding.EncodeToString(append(b, s.cursorMAC(b, key)...))
}

func (s *Server) parseCursor(text string, key []byte) (cursor, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return cursor{}, nil
	}
	notOurs := badRequest("cursor %s: not a cursor of this API (use next_cursor of the previous page)", quote(text))
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(b) < 2+cursorMACBytes {
		return cursor{}, notOurs
	}
	payload, mac := b[:len(b)-cursorMACBytes], b[len(b)-cursorMACBytes:]
	off, n := binary.Uvarint(payload)
	if n <= 0 {
		return cursor{}, notOurs
	}
	below, m := binary.Uvarint(payload[n:])
	if m <= 0 || n+m != len(payload) || off > maxGamesOffset || below > math.MaxInt64 {
		return cursor{}, notOurs
	}
	if !hmac.Equal(mac, s.cursorMAC(payload, key)) {
		return cursor{}, badRequest("cursor %s belongs to another position or filter, or to an earlier run of the server: start again without a cursor", quote(text))
	}
	return cursor{offset: int(off), below: int64(below)}, nil
}
