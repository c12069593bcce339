package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

// app is what every command receives: the effective configuration.
type app struct {
	configFile string
	cfg        *Config
}

// outWriter writes to w and keeps the first error; after it, every write
// fails with it.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

func newRootCommand() *cobra.Command {
	a := &app{}
	var out *outWriter
	root := &cobra.Command{
		Use:   "draughtsdb",
		Short: "Index, verify and analyse draughts game collections in PostgreSQL",
		// The variants come from package rules, as every --variant flag's
		// do: a list written here went stale (it named 5 of 16).
		Long: `draughtsdb reads PDN archives of draughts (checkers) games, replays every game
through its own rules engine (` + strconv.Itoa(len(rules.Variants())) + ` variants: ` + variantList() + `),
and stores games, moves and positions in PostgreSQL for opening statistics,
position search and engine analysis.

With no database URL configured, draughtsdb runs its own PostgreSQL cluster
from the server binaries installed on this machine and starts it on demand.

Configuration: built-in defaults < config file < DRAUGHTSDB_* environment
variables < flags. Every key is documented in configs/draughtsdb.yaml; the
environment variable for a key is DRAUGHTSDB_ plus the key in upper case with
dots as underscores (database.url -> DRAUGHTSDB_DATABASE_URL); any other
DRAUGHTSDB_* variable gets a warning. A value that cannot be used (workers
must be 0..1024, the analysis thresholds 1..6000 and nested) is an error
that names the variable, flag or config file that holds it.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			// Every command writes its standard output through out, which
			// keeps the first write error for PersistentPostRunE.
			out = &outWriter{w: cmd.OutOrStdout()}
			cmd.Root().SetOut(out)
			for _, w := range envWarnings(os.Environ()) {
				fmt.Fprintln(cmd.ErrOrStderr(), "draughtsdb: "+w)
			}
			cfg, _, err := loadConfig(cmd, a.configFile)
			a.cfg = cfg
			return err
		},
		// A command that succeeded but could not write its output (a full
		// disk, a closed pipe) fails: version, config, perft, db status
		// and the summaries exited 0 with their output lost.
		PersistentPostRunE: func(*cobra.Command, []string) error {
			if out != nil && out.err != nil {
				return fmt.Errorf("standard output: %w", out.err)
			}
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.configFile, "config", "", "config file (default: the first of "+strings.Join(configSearchPath(), ", ")+" that exists)")
	pf.String("database-url", "", settingHelp("database.url"))
	pf.String("data-dir", "", settingHelp("embedded.data_dir"))
	bindFlag(pf, "database-url", "database.url")
	bindFlag(pf, "data-dir", "embedded.data_dir")

	root.AddCommand(
		newVersionCommand(),
		newDBCommand(a),
		newConfigCommand(a),
		newValidateCommand(a),
		newPerftCommand(),
		newHubCommand(a),
		newNormalizeCommand(a),
		newImportCommand(a),
		newGenCommand(),
		newQueryCommand(a),
		newExportCommand(a),
		newOpeningsCommand(a),
		newAnalyzeCommand(a),
		newServeCommand(a),
		newDXPCommand(a),
		newMatchCommand(a),
		newTrainCommand(),
		newSearchCommand(a),
		newPlayersCommand(a),
		newSourcesCommand(a),
	)
	return root
}
