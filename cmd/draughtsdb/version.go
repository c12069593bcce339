package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/search"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/spf13/cobra"
)

// A binary installed with go install MODULE@VERSION carries that version
// in its build information; it becomes search.Version, the one version
// string the command, the engine's name and the stored evaluations give
// (a build sets it with -ldflags "-X .../analysis/search.Version=1.2.3").
func init() {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		search.Version = strings.TrimPrefix(info.Main.Version, "v")
	}
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the draughtsdb version, Go version and schema version",
		Long: `Print the draughtsdb version (the one the engine's name and stored
evaluations carry), the Go version, the platform and the schema version.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ms, err := schema.Migrations()
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "draughtsdb %s (%s, %s/%s, schema version %d)\n",
				search.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH, len(ms))
			return nil
		},
	}
}
