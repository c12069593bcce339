package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// runCLI runs the root command with args and returns its standard output.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// configValue runs `draughtsdb config` and returns the value printed for key.
func configValue(t *testing.T, key string, args ...string) string {
	t.Helper()
	out, err := runCLI(t, append([]string{"config"}, args...)...)
	if err != nil {
		t.Fatalf("config %v: %v", args, err)
	}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && k == key {
			return v
		}
	}
	t.Fatalf("key %s not printed:\n%s", key, out)
	return ""
}

// isolate keeps the user's own config files and DRAUGHTSDB_* variables out.
func isolate(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "DRAUGHTSDB_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
}

func TestConfigPrecedence(t *testing.T) {
	isolate(t)
	file := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(file, []byte("embedded:\n  port: 6000\nimport:\n  batch_size: 10\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Default only.
	if got := configValue(t, "embedded.port"); got != "5432" {
		t.Errorf("default: port = %s, want 5432", got)
	}
	// File over default.
	if got := configValue(t, "embedded.port", "--config", file); got != "6000" {
		t.Errorf("file: port = %s, want 6000", got)
	}
	// Env over file.
	t.Setenv("DRAUGHTSDB_EMBEDDED_PORT", "7000")
	if got := configValue(t, "embedded.port", "--config", file); got != "7000" {
		t.Errorf("env: port = %s, want 7000", got)
	}
	// A key the env does not set still comes from the file.
	if got := configValue(t, "import.batch_size", "--config", file); got != "10" {
		t.Errorf("file under env: batch_size = %s, want 10", got)
	}
	// Flag over env (database.url has a flag on every command).
	t.Setenv("DRAUGHTSDB_DATABASE_URL", "postgres://env@h/db")
	if got := configValue(t, "database.url", "--config", file); got != "postgres://env@h/db" {
		t.Errorf("env: url = %s", got)
	}
	if got := configValue(t, "database.url", "--config", file, "--database-url", "postgres://flag@h/db"); got != "postgres://flag@h/db" {
		t.Errorf("flag: url = %s", got)
	}
}

func TestConfigFileInSearchPathIsRead(t *testing.T) {
	isolate(t)
	dir := os.Getenv("XDG_CONFIG_HOME")
	if err := os.MkdirAll(filepath.Join(dir, "draughtsdb"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "draughtsdb", "draughtsdb.yaml"), []byte("workers: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := configValue(t, "workers"); got != "3" {
		t.Errorf("workers = %s, want 3 from the XDG config file", got)
	}
}

func TestUnknownConfigKeyIsNamed(t *testing.T) {
	isolate(t)
	file := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(file, []byte("database:\n  ulr: postgres://x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := runCLI(t, "config", "--config", file)
	if err == nil || !strings.Contains(err.Error(), `unknown key "database.ulr"`) || !strings.Contains(err.Error(), `"database.url"`) {
		t.Fatalf("err = %v, want it to name database.ulr and suggest database.url", err)
	}
}

// The documented default file must list exactly the built-in defaults, each
// key with a comment, so the two never drift apart.
func TestDefaultConfigFileMatchesBuiltInDefaults(t *testing.T) {
	path := filepath.Join("..", "..", "configs", "draughtsdb.yaml")
	v := viper.New()
	v.SetConfigFile(path)
	if err := v.ReadInConfig(); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, k := range v.AllKeys() {
		keys[k] = true
	}
	for _, s := range settings {
		if !keys[s.key] {
			t.Errorf("%s: key %s missing", path, s.key)
			continue
		}
		got := v.Get(s.key)
		if !reflect.DeepEqual(got, s.def) {
			t.Errorf("%s: %s = %#v, built-in default is %#v", path, s.key, got, s.def)
		}
		delete(keys, s.key)
	}
	for k := range keys {
		t.Errorf("%s: key %s is not a known setting", path, k)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasSuffix(trimmed, ":") {
			continue
		}
		if i == 0 || !strings.HasPrefix(strings.TrimSpace(lines[i-1]), "#") {
			t.Errorf("%s:%d: %q has no comment above it", path, i+1, trimmed)
		}
	}
}

func TestEveryCommandAndFlagHasHelp(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Short == "" && c.Name() != "help" && c.Name() != "completion" {
			t.Errorf("command %q has no short help", c.CommandPath())
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.TrimSpace(f.Usage) == "" {
				t.Errorf("%s --%s has no help", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCommand())
}
