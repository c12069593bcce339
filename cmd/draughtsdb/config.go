package main

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// flagKeys maps a flag to the configuration key it sets.
var flagKeys = map[*pflag.Flag]string{}

// bindFlag declares that flag name of fs sets key (flag > env > file > default).
func bindFlag(fs *pflag.FlagSet, name, key string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("no flag " + name)
	}
	flagKeys[f] = key
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
	if path != "" {
		if err := checkConfigFile(path); err != nil {
			return nil, nil, err
		}
		v.SetConfigFile(path)
		if err := v.ReadInConfig(); err != nil {
			return nil, nil, fmt.Errorf("config file %s: %w", path, err)
		}
	}
	var bindErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if key, ok := flagKeys[f]; ok {
			bindErr = errors.Join(bindErr, v.BindPFlag(key, f))
		}
	})
	if bindErr != nil {
		return nil, nil, bindErr
	}
	var cfg Config
	if err := v.Unmarshal(&cfg); err != nil {
		return nil, nil, fmt.Errorf("configuration: %w", err)
	}
	return &cfg, v, nil
}

// checkConfigFile rejects keys that draughtsdb does not know, naming them,
// so a misspelt key is not silently ignored.
func checkConfigFile(path string) error {
	fv := viper.New()
	fv.SetConfigFile(path)
	if err := fv.ReadInConfig(); err != nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	known := map[string]bool{}
	sections := map[string]bool{}
	for _, s := range settings {
		known[s.key] = true
		if sec, _, ok := strings.Cut(s.key, "."); ok {
			sections[sec] = true
		}
	}
	var unknown []string
	for _, k := range fv.AllKeys() {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	msgs := make([]string, len(unknown))
	for i, k := range unknown {
		msgs[i] = fmt.Sprintf("%q", k)
		if s := suggest(k); s != "" {
			msgs[i] += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	return fmt.Errorf("config file %s: unknown key %s", path, strings.Join(msgs, ", "))
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
