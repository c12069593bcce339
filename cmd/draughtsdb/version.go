package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/spf13/cobra"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version = "dev"

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the draughtsdb version, Go version and schema version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := version
			if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
				v = info.Main.Version
			}
			ms, err := schema.Migrations()
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "draughtsdb %s (%s, %s/%s, schema version %d)\n",
				v, runtime.Version(), runtime.GOOS, runtime.GOARCH, len(ms))
			return nil
		},
	}
}
