package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newConfigCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Print the effective configuration (defaults < file < environment < flags)",
		Long: `Print every configuration key with its effective value, after the config
file, DRAUGHTSDB_* environment variables and flags have been applied. A
password in database.url is masked.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, v, err := loadConfig(cmd, a.configFile)
			if err != nil {
				return err
			}
			if f := v.ConfigFileUsed(); f != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "# config file: %s\n", f)
			} else {
				fmt.Fprintln(cmd.OutOrStdout(), "# config file: none")
			}
			for _, s := range settings {
				val := v.Get(s.key)
				if s.key == "database.url" && val != "" {
					val = redact(fmt.Sprint(val))
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %v\n", s.key, val)
			}
			return nil
		},
	}
}
