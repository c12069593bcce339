package main

import (
	"os"
	"path/filepath"
)

// setting is one configuration key: its built-in default and what it means.
// This table is the one place defaults live; configs/draughtsdb.yaml mirrors
// it (a test keeps the two equal) and flags take their help from it.
type setting struct {
	key  string
	def  any
	help string
}

var settings = []setting{
	{"database.url", "", "PostgreSQL URL (postgres://user:pass@host:5432/db); empty = the embedded local cluster"},
	{"embedded.data_dir", "", "data directory of the embedded cluster; empty = $XDG_DATA_HOME/draughtsdb (~/.local/share/draughtsdb; /var/lib/draughtsdb for root)"},
	{"embedded.bin_dir", "", "PostgreSQL server binaries; empty = search PATH, pg_config --bindir, /usr/lib/postgresql/*/bin"},
	{"embedded.port", 5432, "port of the embedded cluster (names its Unix socket; the TCP port if listen_addresses is set)"},
	{"embedded.listen_addresses", "", "TCP addresses the embedded cluster listens on; empty = Unix socket only"},
	{"variant", "", "force this variant for every game (" + variantList() + "); empty = per game from GameType, Variant tag, FEN and notation"},
	{"workers", 0, "parallel workers for reading and replaying games; 0 = number of CPUs (import: one fewer, leaving a core to the database server); at most 1024"},
	{"import.batch_size", 5000, "games per database transaction when importing"},
	{"import.opening_depth", 40, "plies of each game counted in the opening statistics (the tree of draughtsdb openings); positions deeper than this have no tree"},
	{"analysis.inaccuracy", 30, "analyze: a move losing at least this much (hundredths of a man, 1..6000) is an inaccuracy"},
	{"analysis.mistake", 80, "analyze: a move losing at least this much (hundredths of a man, inaccuracy..blunder) is a mistake"},
	{"analysis.blunder", 200, "analyze: a move losing at least this much (hundredths of a man, mistake..6000) is a blunder"},
	{"analysis.lease", "60s", "analyze: how long a worker's claim on a batch of positions lasts before other workers may take it over (renewed while it works); 1s..24h"},
	{"match.timeout", "30s", "match: how long beyond its move time (at a fixed depth: in all) an engine may take for one move before it loses the game by forfeit and is restarted; 1s..24h"},
	{"serve.listen", "127.0.0.1:8080", "serve: the address (HOST:PORT) the explorer listens on; loopback by default, as it has no authentication"},
	{"serve.max_expensive", 2, "serve: expensive requests (filtered trees and games lists, pages after the first) answered at once; more wait up to 2 s, then get 503 with Retry-After (cheap requests have their own bound and never wait for these)"},
	{"serve.max_expensive_per_client", 1, "serve: expensive requests one client (IP address) may have answered at once; more wait up to 2 s, then get 429 with Retry-After"},
	{"dxp.listen", "127.0.0.1:27531", "dxp: the address (HOST:PORT) the DXP engine listens on (27531 is DXP's port); loopback by default"},
	{"user_sql.work_mem", "32MB", "user SQL (analyze --where, query, the explorer): PostgreSQL work_mem, the memory of each sort or hash before it spills to temporary files; 64kB..1TB"},
	{"user_sql.temp_file_limit", "1GB", "user SQL (analyze --where, query, the explorer): PostgreSQL temp_file_limit, the temporary files one statement may write; 64kB..1TB, -1 = no limit"},
	{"dxp.max_connections", 4, "dxp: connections served at once, each with its own engine (a hub engine is a process each); one more is told so in a CHAT and closed; 1..1024"},
	{"dxp.max_minutes", 60, "dxp: the most thinking time per game a GAMEREQ may give; a request for more is played as this many minutes; 1..999"},
	{"dxp.idle_timeout", "5m", "dxp: how long a connection may stay silent outside a game (a new one included) before it is closed and its engine given back; 1s..24h"},
}

// Config is the effective configuration handed to the commands as a plain
// struct; nothing below cmd/ sees viper.
type Config struct {
	Database struct {
		URL string `mapstructure:"url"`
	} `mapstructure:"database"`
	Embedded struct {
		DataDir         string `mapstructure:"data_dir"`
		BinDir          string `mapstructure:"bin_dir"`
		Port            int    `mapstructure:"port"`
		ListenAddresses string `mapstructure:"listen_addresses"`
	} `mapstructure:"embedded"`
	Variant string `mapstructure:"variant"`
	Workers int    `mapstructure:"workers"`
	Import  struct {
		BatchSize    int `mapstructure:"batch_size"`
		OpeningDepth int `mapstructure:"opening_depth"`
	} `mapstructure:"import"`
	Analysis struct {
		Inaccuracy int    `mapstructure:"inaccuracy"`
		Mistake    int    `mapstructure:"mistake"`
		Blunder    int    `mapstructure:"blunder"`
		Lease      string `mapstructure:"lease"`
	} `mapstructure:"analysis"`
	Match struct {
		Timeout string `mapstructure:"timeout"`
	} `mapstructure:"match"`
	Serve struct {
		Listen                string `mapstructure:"listen"`
		MaxExpensive          int    `mapstructure:"max_expensive"`
		MaxExpensivePerClient int    `mapstructure:"max_expensive_per_client"`
	} `mapstructure:"serve"`
	DXP struct {
		Listen         string `mapstructure:"listen"`
		MaxConnections int    `mapstructure:"max_connections"`
		MaxMinutes     int    `mapstructure:"max_minutes"`
		IdleTimeout    string `mapstructure:"idle_timeout"`
	} `mapstructure:"dxp"`
	UserSQL struct {
		WorkMem       string `mapstructure:"work_mem"`
		TempFileLimit string `mapstructure:"temp_file_limit"`
	} `mapstructure:"user_sql"`
}

// settingDefault returns key's built-in default.
func settingDefault(key string) any {
	for _, s := range settings {
		if s.key == key {
			return s.def
		}
	}
	panic("no setting " + key)
}

func settingHelp(key string) string {
	for _, s := range settings {
		if s.key == key {
			return s.help
		}
	}
	panic("no setting " + key)
}

// defaultDataDir is the embedded cluster's home when none is configured.
// Root gets /var/lib/draughtsdb: the server runs as the postgres user, which
// cannot enter /root.
func defaultDataDir() string {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "draughtsdb")
	}
	if os.Geteuid() == 0 {
		return "/var/lib/draughtsdb"
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "draughtsdb")
	}
	return filepath.Join(home, ".local", "share", "draughtsdb")
}

// configSearchPath lists the config files read when --config is not given
// (the first that exists wins).
func configSearchPath() []string {
	var paths []string
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		paths = append(paths, filepath.Join(x, "draughtsdb", "draughtsdb.yaml"))
	} else if home, err := os.UserHomeDir(); err == nil {
		paths = append(paths, filepath.Join(home, ".config", "draughtsdb", "draughtsdb.yaml"))
	}
	return append(paths, "/etc/draughtsdb/draughtsdb.yaml")
}
