package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// runCLI runs the root command with args and returns its standard output.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCommand()
	var out lockedBuffer
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

// TestEmptyConfigSectionIsAccepted: a section whose keys are all commented
// out is null in YAML and sets nothing; it was rejected as an unknown key.
// A section given a value is named as a section that needs keys.
func TestEmptyConfigSectionIsAccepted(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(file, []byte("database:\n#  url: postgres://x\nimport: {}\nembedded:\n  port: 6000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := configValue(t, "embedded.port", "--config", file); got != "6000" {
		t.Errorf("port = %s, want 6000", got)
	}
	if got := configValue(t, "database.url", "--config", file); got != "" {
		t.Errorf("database.url = %q, want the default", got)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("import: 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := runCLI(t, "config", "--config", bad)
	if err == nil || strings.Contains(err.Error(), "unknown key") || !strings.Contains(err.Error(), bad) ||
		!strings.Contains(err.Error(), `key "import" is a section and needs keys (import.batch_size, import.opening_depth)`) {
		t.Errorf("import: 5: %v, want it named as a section that needs keys", err)
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

// TestWorkersHelpFitsTheCommand: export's --workers says what its workers
// do; it had the setting's help, which speaks of import and of reading PDN.
func TestWorkersHelpFitsTheCommand(t *testing.T) {
	for _, c := range newRootCommand().Commands() {
		f := c.Flags().Lookup("workers")
		if f == nil {
			continue
		}
		if c.Name() == "export" {
			if strings.Contains(f.Usage, "import") || strings.Contains(f.Usage, "reading") || !strings.Contains(f.Usage, "stored games") {
				t.Errorf("export --workers: %q", f.Usage)
			}
		} else if !strings.Contains(f.Usage, "reading and replaying games") {
			t.Errorf("%s --workers: %q", c.Name(), f.Usage)
		}
	}
}

// TestUnknownEnvironmentVariableIsWarned: a DRAUGHTSDB_* variable that is
// no setting is named on stderr (with the setting it resembles); the
// settings' own variables are not.
func TestUnknownEnvironmentVariableIsWarned(t *testing.T) {
	isolate(t)
	t.Setenv("DRAUGHTSDB_WORKRS", "3")
	t.Setenv("DRAUGHTSDB_IMPORT_BATCH_SIZE", "10")
	out, err := runCLI(t, "config")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "warning: environment variable DRAUGHTSDB_WORKRS is not a draughtsdb setting") ||
		!strings.Contains(out, "did you mean DRAUGHTSDB_WORKERS?") {
		t.Errorf("no warning naming DRAUGHTSDB_WORKRS:\n%s", out)
	}
	if strings.Contains(out, "DRAUGHTSDB_IMPORT_BATCH_SIZE") || strings.Count(out, "warning") != 1 {
		t.Errorf("want exactly one warning:\n%s", out)
	}
	for _, s := range settings {
		if w := envWarnings([]string{envName(s.key) + "=x"}); len(w) != 0 {
			t.Errorf("%s: %q", s.key, w)
		}
	}
}

// settingError runs `draughtsdb config` with args and returns its error
// as a SettingError.
func settingError(t *testing.T, args ...string) (*SettingError, error) {
	t.Helper()
	_, err := runCLI(t, append([]string{"config"}, args...)...)
	var se *SettingError
	if !errors.As(err, &se) {
		t.Fatalf("config %v: %v, want a SettingError", args, err)
	}
	return se, err
}

// TestBadValueNamesWhereItCameFrom: a value that is not an integer, or
// out of range, is an error that names the variable, the config file and
// key, or the flag that holds it.
func TestBadValueNamesWhereItCameFrom(t *testing.T) {
	isolate(t)
	t.Setenv("DRAUGHTSDB_WORKERS", "abc")
	se, err := settingError(t)
	if se.Key != "workers" || se.Source != "DRAUGHTSDB_WORKERS" || !errors.Is(err, ErrNotInteger) ||
		!strings.Contains(err.Error(), `DRAUGHTSDB_WORKERS="abc"`) {
		t.Errorf("env: %v (%+v)", err, se)
	}
	os.Unsetenv("DRAUGHTSDB_WORKERS")

	file := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(file, []byte("import:\n  batch_size: lots\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	se, err = settingError(t, "--config", file)
	if se.Key != "import.batch_size" || se.Source != "config file "+file || !errors.Is(err, ErrNotInteger) ||
		!strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), `import.batch_size: "lots"`) {
		t.Errorf("file: %v (%+v)", err, se)
	}
	// The environment over the file: the variable is blamed.
	t.Setenv("DRAUGHTSDB_IMPORT_BATCH_SIZE", "0")
	if se, err = settingError(t, "--config", file); se.Source != "DRAUGHTSDB_IMPORT_BATCH_SIZE" || !errors.Is(err, ErrOutOfRange) {
		t.Errorf("env over file: %v", err)
	}
	os.Unsetenv("DRAUGHTSDB_IMPORT_BATCH_SIZE")

	// A flag (analyze's --lease and --workers set analysis.lease and workers).
	_, err = runCLI(t, "analyze", "--lease", "10ms")
	if se := (*SettingError)(nil); !errors.As(err, &se) || se.Source != "--lease" || se.Key != "analysis.lease" || !errors.Is(err, ErrOutOfRange) {
		t.Errorf("--lease 10ms: %v", err)
	}
	_, err = runCLI(t, "analyze", "--lease", "soon")
	if !errors.Is(err, ErrNotDuration) || !strings.Contains(err.Error(), `--lease="soon"`) {
		t.Errorf("--lease soon: %v", err)
	}
	// A long value is cut in the message (which then lists every variant:
	// its length grows with them, the quoted value must not).
	t.Setenv("DRAUGHTSDB_VARIANT", strings.Repeat("ü", 200))
	if se, err := settingError(t); se.Source != "DRAUGHTSDB_VARIANT" || !errors.Is(err, ErrUnknownValue) || strings.Count(err.Error(), "ü") > 64 || !utf8.ValidString(err.Error()) {
		t.Errorf("variant: %v", err)
	}
}

// TestTimeoutAndListenChecked: match.timeout, serve.listen and dxp.listen
// are checked with the other settings, wherever they come from: a config
// file with match: {timeout: abc} passed `config`, and match's error then
// named --timeout and DRAUGHTSDB_MATCH_TIMEOUT, which nobody had set.
func TestTimeoutAndListenChecked(t *testing.T) {
	isolate(t)
	file := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(file, []byte("match:\n  timeout: abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	se, err := settingError(t, "--config", file)
	if se.Key != "match.timeout" || se.Source != "config file "+file || !errors.Is(err, ErrNotDuration) ||
		!strings.Contains(err.Error(), file+`: match.timeout: "abc"`) {
		t.Errorf("file: %v (%+v)", err, se)
	}
	_, err = runCLI(t, "match", "--config", file, "--engine", "builtin", "--engine", "builtin")
	if !errors.As(err, &se) || se.Key != "match.timeout" || strings.Contains(err.Error(), "DRAUGHTSDB_MATCH_TIMEOUT") {
		t.Errorf("match: %v", err)
	}
	t.Setenv("DRAUGHTSDB_MATCH_TIMEOUT", "25h")
	if se, err = settingError(t); se.Source != "DRAUGHTSDB_MATCH_TIMEOUT" || !errors.Is(err, ErrOutOfRange) {
		t.Errorf("env: %v", err)
	}
	os.Unsetenv("DRAUGHTSDB_MATCH_TIMEOUT")
	t.Setenv("DRAUGHTSDB_SERVE_LISTEN", "8080")
	if se, err = settingError(t); se.Key != "serve.listen" || se.Source != "DRAUGHTSDB_SERVE_LISTEN" || !errors.Is(err, ErrNotAddress) {
		t.Errorf("serve.listen: %v", err)
	}
	os.Unsetenv("DRAUGHTSDB_SERVE_LISTEN")
	_, err = runCLI(t, "dxp", "--listen", "nowhere")
	if !errors.As(err, &se) || se.Key != "dxp.listen" || se.Source != "--listen" || !errors.Is(err, ErrNotAddress) {
		t.Errorf("dxp --listen nowhere: %v", err)
	}
}

// TestWorkersBounded: workers is 0 (one per CPU) to MaxWorkers; a million
// used to start a million goroutines.
func TestWorkersBounded(t *testing.T) {
	isolate(t)
	for _, c := range []struct {
		val string
		ok  bool
	}{{"0", true}, {"1", true}, {fmt.Sprint(MaxWorkers), true}, {fmt.Sprint(MaxWorkers + 1), false}, {"1000000", false}, {"-1", false}} {
		t.Setenv("DRAUGHTSDB_WORKERS", c.val)
		_, err := runCLI(t, "config")
		if c.ok != (err == nil) || !c.ok && (!errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "DRAUGHTSDB_WORKERS")) {
			t.Errorf("workers %s: %v", c.val, err)
		}
	}
	t.Setenv("DRAUGHTSDB_WORKERS", "")
	if _, err := runCLI(t, "validate", "--workers", "1000000", "x.pdn"); !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "--workers") {
		t.Errorf("validate --workers 1000000: %v", err)
	}
}

// TestAnalysisThresholdsChecked: each threshold is 1..6000 (a move's loss
// never exceeds twice annotate.ScoreCap) and inaccuracy <= mistake <=
// blunder; the error names the value the user set.
func TestAnalysisThresholdsChecked(t *testing.T) {
	isolate(t)
	for _, c := range []struct {
		env, val string
		blame    string // "" = accepted
	}{
		{"DRAUGHTSDB_ANALYSIS_INACCURACY", "0", "DRAUGHTSDB_ANALYSIS_INACCURACY"},
		{"DRAUGHTSDB_ANALYSIS_BLUNDER", "6001", "DRAUGHTSDB_ANALYSIS_BLUNDER"},
		{"DRAUGHTSDB_ANALYSIS_BLUNDER", "6000", ""},
		{"DRAUGHTSDB_ANALYSIS_MISTAKE", "500", "DRAUGHTSDB_ANALYSIS_MISTAKE"}, // above the default blunder 200
		{"DRAUGHTSDB_ANALYSIS_MISTAKE", "200", ""},                            // equal classes are allowed
		{"DRAUGHTSDB_ANALYSIS_BLUNDER", "50", "DRAUGHTSDB_ANALYSIS_BLUNDER"},  // below the default mistake 80
		{"DRAUGHTSDB_ANALYSIS_INACCURACY", "81", "DRAUGHTSDB_ANALYSIS_INACCURACY"},
		{"DRAUGHTSDB_ANALYSIS_LEASE", "0s", "DRAUGHTSDB_ANALYSIS_LEASE"},
		{"DRAUGHTSDB_ANALYSIS_LEASE", "2s", ""},
	} {
		t.Setenv(c.env, c.val)
		_, err := runCLI(t, "config")
		var se *SettingError
		if c.blame == "" && err != nil || c.blame != "" && (!errors.As(err, &se) || se.Source != c.blame || !errors.Is(err, ErrOutOfRange)) {
			t.Errorf("%s=%s: %v, want it blamed: %q", c.env, c.val, err, c.blame)
		}
		os.Unsetenv(c.env)
	}
	// The built-in defaults are all valid.
	if _, err := runCLI(t, "config"); err != nil {
		t.Errorf("defaults: %v", err)
	}
}
