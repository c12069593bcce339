package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryVariantFlagNamesEveryVariant: every --variant flag's help, and
// the variant key of the documented config file, name every variant rules
// plays.
func TestEveryVariantFlagNamesEveryVariant(t *testing.T) {
	flags := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "variant" {
				return
			}
			flags++
			for _, v := range rules.Variants() {
				if !strings.Contains(f.Usage, v.Name) {
					t.Errorf("%s --variant: the help does not name %s: %q", c.CommandPath(), v.Name, f.Usage)
				}
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCommand()
	walk(root)
	if flags < 6 {
		t.Errorf("%d --variant flags", flags)
	}
	// draughtsdb --help says which variants the rules engine plays (it
	// named 5 of them).
	for _, v := range rules.Variants() {
		if !strings.Contains(strings.ToLower(root.Long), v.Name) {
			t.Errorf("draughtsdb --help does not name %s: %q", v.Name, root.Long)
		}
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "configs", "draughtsdb.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	comment := strings.Join(strings.Fields(string(raw[:bytes.Index(raw, []byte("\nvariant:"))])), " ")
	comment = comment[strings.LastIndex(comment, "# Force this variant"):]
	for _, v := range rules.Variants() {
		if !strings.Contains(comment, v.Name) {
			t.Errorf("configs/draughtsdb.yaml: the variant key's comment does not name %s: %q", v.Name, comment)
		}
	}
}

// TestPerftGenHubEveryVariant: `perft --variant V` counts what rules.Perft
// counts, `gen --variant V` writes games that validate as V, and `hub
// --variant V` answers a search, for every variant rules plays.
func TestPerftGenHubEveryVariant(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	dir := t.TempDir()
	for _, v := range rules.Variants() {
		out, err := runCLIStdout(t, "perft", "--variant", v.Name, "--depth", "3", "--json")
		if err != nil {
			t.Fatalf("perft --variant %s: %v", v.Name, err)
		}
		var p struct {
			Variant string `json:"variant"`
			Nodes   uint64 `json:"nodes"`
		}
		start := v.StartPosition()
		if err := json.Unmarshal([]byte(out), &p); err != nil || p.Variant != v.Name || p.Nodes != rules.Perft(v, &start, 3, rules.PerftOptions{}) || p.Nodes == 0 {
			t.Errorf("perft --variant %s: %s (%v)", v.Name, out, err)
		}

		file := filepath.Join(dir, v.Name+".pdn")
		if _, err := runCLI(t, "gen", "--variant", v.Name, "--games", "5", "--seed", "4", "--out", file); err != nil {
			t.Fatalf("gen --variant %s: %v", v.Name, err)
		}
		out, err = runCLIStdout(t, "validate", "--json", "--quiet", file)
		var sum ingest.ValidateSummary
		if err != nil || json.Unmarshal([]byte(out), &sum) != nil || sum.Accepted != 5 || sum.Rejected != 0 {
			t.Errorf("gen --variant %s: validate %v %s", v.Name, err, out)
		}

		for _, name := range hub.VariantNames(v) {
			cmd := newRootCommand()
			var stdout bytes.Buffer
			cmd.SetOut(&stdout)
			cmd.SetErr(&stdout)
			cmd.SetIn(strings.NewReader("hub\ninit\npos pos=" + hub.FormatPosition(&start) + "\nlevel depth=1\ngo think\nping\n"))
			cmd.SetArgs([]string{"hub", "--variant", name, "--tt-size", "1"})
			if err := cmd.Execute(); err != nil {
				t.Fatalf("hub --variant %s: %v", name, err)
			}
			o := stdout.String()
			i := strings.Index(o, "done move=")
			if !strings.Contains(o, "param name=variant value="+v.Name+" ") || i < 0 {
				t.Fatalf("hub --variant %s:\n%s", name, o)
			}
			move := strings.Fields(o[i+len("done move="):])[0]
			if _, err := hub.ParseMove(&start, move); err != nil {
				t.Errorf("hub --variant %s: %s: %v", name, move, err)
			}
		}
	}
}

// TestBadVariantFlagIsNamed: every command's own --variant names the flag
// and lists the variants when it names none, as the variant setting does
// (perft, gen, hub, openings, export, analyze and match gave the bare
// `rules: unknown variant: "foo"`).
func TestBadVariantFlagIsNamed(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	for _, args := range [][]string{
		{"perft"}, {"gen"}, {"hub"}, {"openings"}, {"export", "--out", "-"}, {"analyze"},
		{"match", "--engine", "builtin", "--engine", "builtin"},
		{"query", "opening_tree", "--param", "moves=32-28"},
	} {
		flag := "--variant"
		if args[0] == "query" {
			flag = "--param variant"
			args = append(args, "--param", "variant=foo")
		} else {
			args = append(args, "--variant", "foo")
		}
		_, err := runCLI(t, args...)
		var se *SettingError
		if !errors.As(err, &se) || se.Source != flag || !errors.Is(err, ErrUnknownValue) ||
			!strings.HasPrefix(err.Error(), flag+`="foo": unknown value; want one of russian, international,`) {
			t.Errorf("%s: %v, want an error naming %s and the variants", args[0], err, flag)
		}
	}
}
