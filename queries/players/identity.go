package players

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Ident is what a written name says about its player: a surname and the
// initials of the given names, folded (lower case, no diacritics, single
// spaces). A name that is not a person's ("Chinook", "draughtsdb 0.1 (A)",
// "N.N.") has no initials and its whole folded text as Surname, unless it
// is a single word, which may be a surname written alone.
type Ident struct {
	Surname  string
	Initials string
	// Person reports that the name was read as a person's: surname and
	// given names. A name with digits or brackets, an unknown player ("?",
	// "N.N.") or an empty one is not, and joins only names folded to the
	// same text.
	Person bool
}

// Key is the identity's text form; names with the same key are one
// player.
func (id Ident) Key() string {
	if !id.Person {
		return "=" + id.Surname
	}
	return id.Surname + "|" + id.Initials
}

// particles are the lower-case words that belong to a surname written
// after the given names ("Jan van der Wal") or after a comma ("Kooij, van
// der, W."), as Dutch, German, French, Italian, Spanish and Portuguese
// names have them.
var particles = map[string]bool{
	"van": true, "der": true, "den": true, "de": true, "ter": true, "ten": true, "te": true,
	"het": true, "'t": true, "von": true, "zu": true, "di": true, "da": true, "del": true,
	"della": true, "la": true, "le": true, "du": true, "des": true, "dos": true, "das": true,
	"el": true, "al": true, "bin": true, "ibn": true, "op": true, "in": true, "vander": true,
}

// fold lowers s, removes diacritics and folds whitespace to single spaces.
func fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	// Letters that NFD does not decompose.
	return strings.NewReplacer("ß", "ss", "ø", "o", "æ", "ae", "œ", "oe", "ł", "l", "đ", "d", "ı", "i").Replace(b.String())
}

// Identify reads a name as written in a White or Black tag: "Surname, I.",
// "Surname,I.", "Surname, van der, I.", "I. Surname", "I.J. Surname",
// "Firstname Surname", "Firstname van der Surname" and "Surname I.".
func Identify(name string) Ident {
	f := strings.TrimSpace(fold(name))
	f = strings.Trim(f, " ,;")
	if f == "" || f == "?" || f == "-" || f == "n.n." || f == "nn" || f == "n.n" || strings.ContainsAny(f, "0123456789()[]{}<>@/\\") {
		return Ident{Surname: f}
	}
	if i := strings.IndexByte(f, ','); i >= 0 {
		parts := strings.Split(f, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		surname := parts[0]
		given := parts[1:]
		// "Kooij, van der, W.": the particles of the surname after it.
		if len(given) >= 2 && allParticles(given[0]) {
			surname = given[0] + " " + surname
			given = given[1:]
		}
		if surname == "" {
			return Ident{Surname: f}
		}
		return Ident{Surname: surname, Initials: initials(strings.Join(given, " ")), Person: true}
	}
	words := strings.Fields(f)
	// "T.Sijbrands": initials glued to the surname.
	if len(words) == 1 {
		w := words[0]
		if i := strings.LastIndexByte(w, '.'); i > 0 && i < len(w)-1 {
			return Ident{Surname: w[i+1:], Initials: initials(w[:i+1]), Person: true}
		}
		return Ident{Surname: strings.TrimSuffix(w, "."), Person: true}
	}
	// "Sijbrands T.", "Heffner A.J.": initials after the surname.
	if isInitials(words[len(words)-1]) && !isInitials(words[0]) {
		k := len(words) - 1
		for k > 1 && isInitials(words[k-1]) {
			k--
		}
		return Ident{Surname: strings.Join(words[:k], " "), Initials: initials(strings.Join(words[k:], " ")), Person: true}
	}
	// Given names first: the surname is the last word with the particles
	// before it.
	k := len(words) - 1
	for k > 1 && particles[words[k-1]] {
		k--
	}
	return Ident{Surname: strings.Join(words[k:], " "), Initials: initials(strings.Join(words[:k], " ")), Person: true}
}

func allParticles(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if !particles[w] {
			return false
		}
	}
	return true
}

// isInitials reports whether a word is initials: "a.", "a.j.", "aj" is
// not (it may be a name), "a" is.
func isInitials(w string) bool {
	if strings.Trim(w, ".") == "" {
		return false
	}
	letters := 0
	for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '.' || r == '-' }) {
		if len([]rune(part)) != 1 {
			return false
		}
		letters++
	}
	return letters > 0 && (strings.Contains(w, ".") || letters == 1)
}

// initials returns the first letter of each given name: "A.J." and "a. j."
// give "aj", "Jan-Willem" "jw", "Ton" "t".
func initials(given string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(given, func(r rune) bool {
		return r == '.' || r == '-' || r == ' ' || r == ','
	}) {
		if particles[part] {
			continue
		}
		for _, r := range part {
			if unicode.IsLetter(r) {
				b.WriteRune(r)
				break
			}
		}
	}
	return b.String()
}

// Spelling is one written name and how many games it has.
type Spelling struct {
	ID    int32
	Name  string
	Games int
}

// Link is a user's decision about a name: Target "" splits Name from
// every other spelling; otherwise Name is Target's player.
type Link struct {
	Name   string
	Target string
}

// Player is one person: the spellings that name them, the most used
// first.
type Player struct {
	Spellings []Spelling
	// Why says how the spellings were joined, one line each after the
	// first: "same surname and initials", "the only longer form of the
	// initials", "alias set by the user".
	Why []string
	// Candidates are names this player may also be, left apart because
	// the join would be ambiguous (a shorter form that fits two longer
	// ones), or split by the user.
	Candidates []string
}

// Name is the player's main spelling.
func (p *Player) Name() string { return p.Spellings[0].Name }

// IDs returns the players table ids of every spelling.
func (p *Player) IDs() []int32 {
	ids := make([]int32, len(p.Spellings))
	for i, s := range p.Spellings {
		ids[i] = s.ID
	}
	return ids
}

// Group joins the spellings into players: spellings with the same key
// are one player; a shorter form of the initials ("Heffner, A.") joins a
// longer one ("Heffner, A.J.") when every longer form of it with that
// surname is one chain of prefixes ("a" < "aj" < "ajk"), joining the
// longest; otherwise it stays apart and lists them as candidates. A
// surname written alone joins the same way. The user's links then apply:
// a split name is a player of its own, an alias joins its target's
// player. The result is sorted by games, then name.
func Group(spellings []Spelling, links []Link) []*Player {
	n := len(spellings)
	parent := make([]int, n)
	why := make([]string, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) { parent[find(a)] = find(b) }

	split := map[string]bool{}
	alias := map[string]string{}
	for _, l := range links {
		if l.Target == "" {
			split[l.Name] = true
		} else {
			alias[l.Name] = l.Target
		}
	}
	ids := make([]Ident, n)
	byKey := map[string][]int{}
	bySurname := map[string][]string{} // the distinct initials of person keys
	index := map[string]int{}
	for i, s := range spellings {
		index[s.Name] = i
		ids[i] = Identify(s.Name)
		if split[s.Name] {
			continue
		}
		k := ids[i].Key()
		if len(byKey[k]) == 0 && ids[i].Person {
			bySurname[ids[i].Surname] = append(bySurname[ids[i].Surname], ids[i].Initials)
		}
		byKey[k] = append(byKey[k], i)
	}
	for _, members := range byKey {
		for _, m := range members[1:] {
			union(m, members[0])
			why[m] = "same surname and initials"
		}
	}
	candidates := make([][]string, n)
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		members := byKey[k]
		id := ids[members[0]]
		if !id.Person {
			continue
		}
		var longer []string
		for _, in := range bySurname[id.Surname] {
			if len(in) > len(id.Initials) && strings.HasPrefix(in, id.Initials) {
				longer = append(longer, in)
			}
		}
		if len(longer) == 0 {
			continue
		}
		sort.Slice(longer, func(a, b int) bool {
			return len(longer[a]) < len(longer[b]) || len(longer[a]) == len(longer[b]) && longer[a] < longer[b]
		})
		chain := true
		for j := 1; j < len(longer); j++ {
			if !strings.HasPrefix(longer[j], longer[j-1]) {
				chain = false
			}
		}
		if chain {
			target := byKey[Ident{Surname: id.Surname, Initials: longer[len(longer)-1], Person: true}.Key()][0]
			union(members[0], target)
			why[members[0]] = "the only longer form of its initials with that surname"
			continue
		}
		for _, in := range longer {
			t := byKey[Ident{Surname: id.Surname, Initials: in, Person: true}.Key()][0]
			for _, m := range members {
				candidates[m] = append(candidates[m], spellings[t].Name)
			}
		}
	}
	for name, target := range alias {
		i, ok1 := index[name]
		j, ok2 := index[target]
		if ok1 && ok2 {
			union(i, j)
			why[i] = "alias set by the user"
		}
	}

	groups := map[int]*Player{}
	var order []int
	for i, s := range spellings {
		r := find(i)
		p := groups[r]
		if p == nil {
			p = &Player{}
			groups[r] = p
			order = append(order, r)
		}
		p.Spellings = append(p.Spellings, s)
		if why[i] != "" {
			p.Why = append(p.Why, s.Name+": "+why[i])
		}
		p.Candidates = append(p.Candidates, candidates[i]...)
		if split[s.Name] {
			p.Why = append(p.Why, s.Name+": split by the user")
		}
	}
	out := make([]*Player, 0, len(order))
	for _, r := range order {
		p := groups[r]
		p.sortSpellings()
		p.Candidates = dedupe(p.Candidates, p)
		sort.Strings(p.Why)
		out = append(out, p)
	}
	sort.SliceStable(out, func(a, b int) bool {
		ga, gb := out[a].games(), out[b].games()
		if ga != gb {
			return ga > gb
		}
		return out[a].Name() < out[b].Name()
	})
	return out
}

// sortSpellings puts the most used spelling first (then by name).
func (p *Player) sortSpellings() {
	sort.SliceStable(p.Spellings, func(a, b int) bool {
		if p.Spellings[a].Games != p.Spellings[b].Games {
			return p.Spellings[a].Games > p.Spellings[b].Games
		}
		return p.Spellings[a].Name < p.Spellings[b].Name
	})
}

func (p *Player) games() int {
	n := 0
	for _, s := range p.Spellings {
		n += s.Games
	}
	return n
}

// dedupe sorts names, drops repeats and the player's own spellings.
func dedupe(names []string, p *Player) []string {
	own := map[string]bool{}
	for _, s := range p.Spellings {
		own[s.Name] = true
	}
	sort.Strings(names)
	var out []string
	for i, n := range names {
		if own[n] || i > 0 && names[i-1] == n {
			continue
		}
		out = append(out, n)
	}
	return out
}
