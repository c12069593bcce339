package main

import (
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// flagKeys maps a flag to the configuration key it sets. The mutex lets
// several root commands be built and run at once (tests in parallel).
var (
	flagKeysMu sync.Mutex
	flagKeys   = map[*pflag.Flag]string{}
)

// bindFlag declares that flag name of fs sets key (flag > env > file > default).
func bindFlag(fs *pflag.FlagSet, name, key string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("no flag " + name)
	}
	flagKeysMu.Lock()
	flagKeys[f] = key
	flagKeysMu.Unlock()
}

// flagKey is the configuration key flag f sets, if any.
func flagKey(f *pflag.Flag) (string, bool) {
	flagKeysMu.Lock()
	defer flagKeysMu.Unlock()
	key, ok := flagKeys[f]
	return key, ok
}

// loadConfig builds the effective configuration for cmd: built-in defaults,
// then the config file, then DRAUGHTSDB_* environment variables, then the
// flags given on the command line.
func loadConfig(cmd *cobra.Command, configFile string) (*Config, *viper.Viper, error) {
	v := viper.New()
	for _, s := range settings {
		v.SetDefault(s.key, s.def)
	}
	v.SetEnvPrefix("DRAUGHTSDB")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	path := configFile
	if path == "" {
		for _, p := range configSearchPath() {
			if _, err := os.Stat(p); err == nil {
				path = p
				break
			}
		}
	}
	src := sources{flags: map[string]string{}}
	if path != "" {
		fv, err := checkConfigFile(path)
		if err != nil {
			return nil, nil, err
		}
		src.file, src.path = fv, path
		v.SetConfigFile(path)
		if err := v.ReadInConfig(); err != nil {
			return nil, nil, fmt.Errorf("config file %s: %w", path, err)
		}
	}
	var bindErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if key, ok := flagKey(f); ok {
			bindErr = errors.Join(bindErr, v.BindPFlag(key, f))
			if f.Changed {
				src.flags[key] = "--" + f.Name
			}
		}
	})
	if bindErr != nil {
		return nil, nil, bindErr
	}
	if err := checkValues(v, src); err != nil {
		return nil, nil, err
	}
	var cfg Config
	if err := v.Unmarshal(&cfg); err != nil {
		return nil, nil, fmt.Errorf("configuration: %w", err)
	}
	return &cfg, v, nil
}

// checkConfigFile rejects keys that draughtsdb does not know, naming them,
// so a misspelt key is not silently ignored. It returns the file's own
// values, which tell what the file sets.
func checkConfigFile(path string) (*viper.Viper, error) {
	fv := viper.New()
	fv.SetConfigFile(path)
	if err := fv.ReadInConfig(); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	known := map[string]bool{}
	sections := map[string][]string{} // section -> its keys
	for _, s := range settings {
		known[s.key] = true
		if sec, _, ok := strings.Cut(s.key, "."); ok {
			sections[sec] = append(sections[sec], s.key)
		}
	}
	var unknown []string
	var errs []error
	for _, k := range fv.AllKeys() {
		if known[k] {
			continue
		}
		if keys, ok := sections[k]; ok {
			// A section whose keys are all commented out is null (or {}):
			// it sets nothing. A value in its place is a mistake.
			if m, isMap := fv.Get(k).(map[string]any); fv.Get(k) == nil || isMap && len(m) == 0 {
				continue
			}
			errs = append(errs, fmt.Errorf("config file %s: key %q is a section and needs keys (%s), not a value: %s",
				path, k, strings.Join(keys, ", "), capQuote(fmt.Sprint(fv.Get(k)))))
			continue
		}
		unknown = append(unknown, k)
	}
	if len(unknown) == 0 {
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		return fv, nil
	}
	sort.Strings(unknown)
	msgs := make([]string, len(unknown))
	for i, k := range unknown {
		msgs[i] = fmt.Sprintf("%q", k)
		if s := suggest(k); s != "" {
			msgs[i] += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	return nil, errors.Join(append(errs, fmt.Errorf("config file %s: unknown key %s", path, strings.Join(msgs, ", ")))...)
}

// suggest returns the known key closest to k, if it is close.
func suggest(k string) string {
	best, bestD := "", 4
	for _, s := range settings {
		if d := editDistance(k, s.key); d < bestD {
			best, bestD = s.key, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// envName is the environment variable of a key: database.url ->
// DRAUGHTSDB_DATABASE_URL.
func envName(key string) string {
	return "DRAUGHTSDB_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// envWarnings returns a warning for every DRAUGHTSDB_* variable of environ
// ("NAME=value" strings) that is no setting: draughtsdb ignores it, and a
// misspelt name (DRAUGHTSDB_WORKER) would otherwise go unnoticed.
func envWarnings(environ []string) []string {
	known := map[string]bool{}
	for _, s := range settings {
		known[envName(s.key)] = true
	}
	var warns []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "DRAUGHTSDB_") || known[name] {
			continue
		}
		w := fmt.Sprintf("warning: environment variable %s is not a draughtsdb setting; ignored", pdn.Clip(name, 64))
		best, bestD := "", 4
		for n := range known {
			if d := editDistance(name, n); d < bestD || d == bestD && n < best {
				best, bestD = n, d
			}
		}
		if best != "" {
			w += fmt.Sprintf(" (did you mean %s?)", best)
		}
		warns = append(warns, w)
	}
	sort.Strings(warns)
	return warns
}

// MaxWorkers bounds the workers setting. More goroutines than this only
// cost memory and scheduling (analyze also starts one engine, with its
// transposition table, per worker); 1,000,000 workers used to hang.
const MaxWorkers = 1024

// maxLoss is the largest loss analyze computes for a move: both scores
// are capped at annotate.ScoreCap, so a threshold above it never applies.
const maxLoss = annotate.MaxLoss

// Lease bounds: below a second, workers would spend their time renewing
// and taking over each other's claims; a day is far beyond any batch.
// match.timeout has the same.
const (
	minLease = time.Second
	maxLease = 24 * time.Hour
)

// intLimits are the accepted ranges (inclusive) of the integer settings
// and what to say about them.
var intLimits = map[string]struct {
	min, max int
	note     string
}{
	"embedded.port":                  {1, 65535, ""},
	"workers":                        {0, MaxWorkers, "0 = one per CPU"},
	"import.batch_size":              {1, 1_000_000, "games per transaction"},
	"import.opening_depth":           {1, openings.MaxDepth, "plies"},
	"analysis.inaccuracy":            {1, maxLoss, "hundredths of a man"},
	"analysis.mistake":               {1, maxLoss, "hundredths of a man"},
	"analysis.blunder":               {1, maxLoss, "hundredths of a man"},
	"serve.max_expensive":            {1, 64, "requests at once; at most the database pool's connections less one"},
	"serve.max_expensive_per_client": {1, 64, "requests at once"},
	"dxp.max_connections":            {1, 1024, "connections served at once"},
	"dxp.max_minutes":                {1, 999, "minutes of thinking time per game"},
}

// Why a SettingError rejects a value.
var (
	ErrNotInteger   = errors.New("not an integer")
	ErrNotDuration  = errors.New("not a duration")
	ErrOutOfRange   = errors.New("out of range")
	ErrUnknownValue = errors.New("unknown value")
	ErrNotAddress   = errors.New("not an address")
)

// SettingError is a configuration value draughtsdb cannot use. It names
// where the value came from, so that the user knows what to fix.
type SettingError struct {
	Key    string // the setting: workers, analysis.mistake; "" for a flag that sets none
	Source string // --workers, DRAUGHTSDB_WORKERS, "config file PATH" or "built-in default"
	Value  string // the value as given
	Err    error  // ErrNotInteger, ErrNotDuration, ErrOutOfRange, ErrUnknownValue or ErrNotAddress
	Want   string // what is accepted
}

func (e *SettingError) Error() string {
	var where string
	switch {
	case e.Key == "": // a command's own flag, no setting
		where = fmt.Sprintf("%s=%s", e.Source, capQuote(e.Value))
	case strings.HasPrefix(e.Source, "--") || strings.HasPrefix(e.Source, "DRAUGHTSDB_"):
		where = fmt.Sprintf("%s=%s (setting %s)", e.Source, capQuote(e.Value), e.Key)
	default:
		where = fmt.Sprintf("%s: %s: %s", e.Source, e.Key, capQuote(e.Value))
	}
	return fmt.Sprintf("%s: %v; want %s", where, e.Err, e.Want)
}

func (e *SettingError) Unwrap() error { return e.Err }

// sources tells where each key's effective value comes from.
type sources struct {
	flags map[string]string // key -> "--flag", for the flags given
	file  *viper.Viper      // the config file's own values, or nil
	path  string
}

func (s sources) of(key string) string {
	if f, ok := s.flags[key]; ok {
		return f
	}
	if os.Getenv(envName(key)) != "" { // viper ignores empty variables too
		return envName(key)
	}
	if s.file != nil && s.file.IsSet(key) {
		return "config file " + s.path
	}
	return "built-in default"
}

// checkValues checks every setting's effective value (its type and range,
// and the order of the analysis thresholds) and stores the parsed
// integers back, so that the Config is built from checked values. Errors
// are SettingErrors joined.
func checkValues(v *viper.Viper, src sources) error {
	var errs []error
	bad := func(key string, err error, want string) {
		errs = append(errs, &SettingError{Key: key, Source: src.of(key), Value: fmt.Sprint(v.Get(key)), Err: err, Want: want})
	}
	ints := map[string]int{}
	for _, s := range settings {
		if _, isInt := s.def.(int); !isInt {
			continue
		}
		lim, ok := intLimits[s.key]
		if !ok {
			panic("no limits for integer setting " + s.key)
		}
		want := fmt.Sprintf("an integer %d..%d", lim.min, lim.max)
		if lim.note != "" {
			want += " (" + lim.note + ")"
		}
		n, err := toInt(v.Get(s.key))
		switch {
		case err != nil:
			bad(s.key, ErrNotInteger, want)
		case n < lim.min || n > lim.max:
			bad(s.key, ErrOutOfRange, want)
		default:
			ints[s.key] = n
			v.Set(s.key, n)
		}
	}
	if name := strings.TrimSpace(fmt.Sprint(v.Get("variant"))); name != "" {
		if _, err := rules.VariantByName(name); err != nil {
			bad("variant", ErrUnknownValue, "empty (per game) or "+variantWant())
		}
	}
	for _, d := range []struct{ key, want string }{
		{"analysis.lease", "a duration from 1s to 24h (60s, 2m)"},
		{"match.timeout", "a duration from 1s to 24h (30s, 2m)"},
		{"dxp.idle_timeout", "a duration from 1s to 24h (5m, 1h)"},
	} {
		if x, err := time.ParseDuration(strings.TrimSpace(fmt.Sprint(v.Get(d.key)))); err != nil {
			bad(d.key, ErrNotDuration, d.want)
		} else if x < minLease || x > maxLease {
			bad(d.key, ErrOutOfRange, d.want)
		}
	}
	for _, key := range []string{"serve.listen", "dxp.listen"} {
		if _, _, err := net.SplitHostPort(strings.TrimSpace(fmt.Sprint(v.Get(key)))); err != nil {
			_, port, _ := strings.Cut(settingDefault(key).(string), ":")
			bad(key, ErrNotAddress, fmt.Sprintf("HOST:PORT (127.0.0.1:%s, :%s)", port, port))
		}
	}
	for _, key := range []string{"user_sql.work_mem", "user_sql.temp_file_limit"} {
		unlimited := key == "user_sql.temp_file_limit"
		if err := schema.CheckMemoryValue(strings.TrimSpace(fmt.Sprint(v.Get(key))), unlimited); err != nil {
			want := "a size from 64kB to 1TB (32MB, 1GB)"
			if unlimited {
				want += ", or -1 for no limit"
			}
			bad(key, ErrOutOfRange, want)
		}
	}
	// The classes nest: every blunder is a mistake's worth of loss, every
	// mistake an inaccuracy's.
	in, okI := ints["analysis.inaccuracy"]
	mi, okM := ints["analysis.mistake"]
	bl, okB := ints["analysis.blunder"]
	if okI && okM && okB {
		order := func() string {
			return fmt.Sprintf("analysis.inaccuracy (%d, %s) <= analysis.mistake (%d, %s) <= analysis.blunder (%d, %s)",
				in, src.of("analysis.inaccuracy"), mi, src.of("analysis.mistake"), bl, src.of("analysis.blunder"))
		}
		switch {
		case in > mi:
			bad(firstSet(src, "analysis.mistake", "analysis.inaccuracy"), ErrOutOfRange, order())
		case mi > bl:
			bad(firstSet(src, "analysis.blunder", "analysis.mistake"), ErrOutOfRange, order())
		}
	}
	return errors.Join(errs...)
}

// variantWant lists the variant names, for an error.
func variantWant() string { return "one of " + variantNames(nil, "or") }

// flagVariant returns the variant named by a command's own flag (perft's
// --variant, query's --param variant), or an error that names the flag
// and lists the variants, as a bad variant setting's does.
func flagVariant(flag, name string) (*rules.Variant, error) {
	v, err := rules.VariantByName(name)
	if err != nil {
		return nil, &SettingError{Source: flag, Value: name, Err: ErrUnknownValue, Want: variantWant()}
	}
	return v, nil
}

// firstSet returns the first of keys whose value the user gave (not a
// built-in default): the one to blame for a conflict; else the last.
func firstSet(src sources, keys ...string) string {
	for _, k := range keys {
		if src.of(k) != "built-in default" {
			return k
		}
	}
	return keys[len(keys)-1]
}

// toInt reads an integer setting: an int from YAML or a flag, or a string
// from the environment or YAML. A float is accepted only when it is whole.
func toInt(x any) (int, error) {
	switch n := x.(type) {
	case int:
		return n, nil
	case int64:
		return int(n), nil
	case uint64:
		if n > math.MaxInt {
			return 0, ErrOutOfRange
		}
		return int(n), nil
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return 0, ErrNotInteger
		}
		return int(n), nil
	case string:
		return strconv.Atoi(strings.TrimSpace(n))
	}
	return 0, ErrNotInteger
}

// capQuote quotes a user's value for a message, cut to 64 bytes.
func capQuote(s string) string { return strconv.Quote(pdn.Clip(s, 64)) }
