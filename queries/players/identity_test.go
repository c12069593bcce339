package players

import (
	"slices"
	"testing"
)

// Names as the shared archives write them (the PDN standard's example
// files, OCA_2.0, the Dutch championship files) and the key each must fold
// to.
func TestIdentify(t *testing.T) {
	for _, c := range []struct{ name, key string }{
		{"Sijbrands,T.", "sijbrands|t"},
		{"T. Sijbrands", "sijbrands|t"},
		{"T.Sijbrands", "sijbrands|t"},
		{"Ton Sijbrands", "sijbrands|t"},
		{"Sijbrands T.", "sijbrands|t"},
		{"SIJBRANDS, T", "sijbrands|t"},
		{"Heffner, A.J.", "heffner|aj"},
		{"A. J. Heffner", "heffner|aj"},
		{"A.J. Heffner", "heffner|aj"},
		{"Heffner, A.", "heffner|a"},
		{"Heffner", "heffner|"},
		{"Tinsley ,M.F.", "tinsley|mf"},
		{"Tinsley,  M. F.", "tinsley|mf"},
		{"Kooij,van der,W.", "van der kooij|w"},
		{"Wim van der Kooij", "van der kooij|w"},
		{"Jan-Willem Schwarzman", "schwarzman|jw"},
		{"Ndjofang, J.M.", "ndjofang|jm"},
		{"Gérard Vérsé", "verse|g"},
		{"Gerard Verse", "verse|g"},
		{"Milshin,A", "milshin|a"},
		{"N.N.", "=n.n."},
		{"?", "=?"},
		{"draughtsdb 0.1 (A)", "=draughtsdb 0.1 (a)"},
		{"Chinook", "chinook|"},
	} {
		if got := Identify(c.name).Key(); got != c.key {
			t.Errorf("Identify(%q) = %q, want %q", c.name, got, c.key)
		}
	}
}

func names(p *Player) []string {
	var out []string
	for _, s := range p.Spellings {
		out = append(out, s.Name)
	}
	return out
}

func find(ps []*Player, name string) *Player {
	for _, p := range ps {
		for _, s := range p.Spellings {
			if s.Name == name {
				return p
			}
		}
	}
	return nil
}

func TestGroup(t *testing.T) {
	sp := []Spelling{
		{1, "Heffner, A.J.", 92}, {2, "Heffner, A.", 40}, {3, "A. J. Heffner", 3},
		{4, "Sijbrands,T.", 2}, {5, "T. Sijbrands", 13},
		{6, "Long, A.A.", 671}, {7, "Long, M.", 43}, {8, "Long", 5},
		{9, "Lafferty, D.", 228}, {10, "Lafferty, D.M.", 216},
		{11, "Smith, J.A.", 1}, {12, "Smith, J.B.", 1}, {13, "Smith, J.", 1},
	}
	ps := Group(sp, nil)
	if p := find(ps, "Heffner, A."); !slices.Equal(names(p), []string{"Heffner, A.J.", "Heffner, A.", "A. J. Heffner"}) {
		t.Errorf("Heffner: %q", names(p))
	} else if p.Name() != "Heffner, A.J." || len(p.Why) != 2 {
		t.Errorf("Heffner: name %q, why %q", p.Name(), p.Why)
	}
	if p := find(ps, "T. Sijbrands"); !slices.Equal(names(p), []string{"T. Sijbrands", "Sijbrands,T."}) {
		t.Errorf("Sijbrands: %q", names(p))
	}
	if p := find(ps, "Lafferty, D."); len(p.Spellings) != 2 {
		t.Errorf("Lafferty: %q", names(p))
	}
	// "Long" alone fits A.A. and M.: ambiguous, it stays apart.
	if p := find(ps, "Long"); !slices.Equal(names(p), []string{"Long"}) || !slices.Equal(p.Candidates, []string{"Long, A.A.", "Long, M."}) {
		t.Errorf("Long: %q, candidates %q", names(p), p.Candidates)
	}
	if p := find(ps, "Smith, J."); len(p.Spellings) != 1 || len(p.Candidates) != 2 {
		t.Errorf("Smith, J.: %q, candidates %q", names(p), p.Candidates)
	}

	// The user's links: Long is A.A.'s; Heffner, A. is split off.
	ps = Group(sp, []Link{{"Long", "Long, A.A."}, {"Heffner, A.", ""}})
	if p := find(ps, "Long"); !slices.Equal(names(p), []string{"Long, A.A.", "Long"}) {
		t.Errorf("Long aliased: %q", names(p))
	}
	if p := find(ps, "Heffner, A."); !slices.Equal(names(p), []string{"Heffner, A."}) {
		t.Errorf("Heffner, A. split: %q", names(p))
	}
	if p := find(ps, "Heffner, A.J."); !slices.Equal(names(p), []string{"Heffner, A.J.", "A. J. Heffner"}) {
		t.Errorf("Heffner, A.J. after the split: %q", names(p))
	}
}
