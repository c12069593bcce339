package main

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/spf13/cobra"
)

func newSourcesCommand(a *app) *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "sources [--json] | sources remove ID|NAME... | sources rename ID|NAME NEW-NAME",
		Short: "List, remove or rename the imported sources (files and engine matches)",
		Long: `List the sources of the stored games: each imported file (kind archive) and
each engine match (kind match), with its id, name, kind, the games, rejected
games and duplicates it holds, and when it was imported.

--json prints an array of objects with the keys id, name, kind, games,
rejected, duplicates and imported_at (RFC 3339).

  sources remove ID|NAME...   delete sources with their games, rejected games,
                              duplicates and share of the opening statistics
  sources rename ID|NAME NEW  give a source another name

A source is named by its id or, when no other source has the same name, by
its name. The kinds select games elsewhere: openings, query, export and the
explorer count archive games unless given --source match, all or ids.`,
		Args: subcommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			list, err := schema.ListSources(cmd.Context(), pool)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if jsonOut {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			if len(list) == 0 {
				fmt.Fprintln(out, "no sources: draughtsdb import PATH loads some")
				return nil
			}
			r := &queries.Result{Columns: []string{"id", "name", "kind", "games", "rejected", "duplicates", "imported_at"}}
			n := func(v int64) string { return strconv.FormatInt(v, 10) }
			for _, s := range list {
				r.Rows = append(r.Rows, []string{n(s.ID), s.Name, s.Kind, n(s.Games), n(s.Rejected), n(s.Duplicates),
					s.ImportedAt.Local().Format("2006-01-02 15:04:05")})
				r.Null = append(r.Null, make([]bool, len(r.Columns)))
			}
			return r.WriteTable(out)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the list as a JSON array of objects (id, name, kind, games, rejected, duplicates, imported_at)")
	cmd.AddCommand(
		&cobra.Command{
			Use:   "remove ID|NAME...",
			Short: "Delete sources with their games, rejected games, duplicates and share of the opening statistics",
			Long: `Delete each source named (by id, or by a name no other source has) with its
games, their position index and move annotations, its rejected games, its
duplicates and its share of the opening statistics, in one transaction per
source: a kill leaves a source whole or gone, and the same command run
again finishes. Engine evaluations belong to positions and stay.

The games of other sources recorded as duplicates of a removed source's
games were never stored themselves; the command counts them, and importing
their source again with --force stores them.`,
			Args: cobra.MinimumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				pool, err := openDatabase(cmd.Context(), a.cfg)
				if err != nil {
					return err
				}
				defer pool.Close()
				// Every name is resolved before anything is removed, so a
				// mistyped one removes nothing.
				var ids []int64
				var games int64
				for _, ref := range args {
					s, err := schema.FindSource(cmd.Context(), pool, ref)
					if err != nil {
						return err
					}
					ids = append(ids, s.ID)
					games += s.Games + s.Rejected + s.Duplicates
				}
				out := cmd.OutOrStdout()
				// The bar counts the games (stored, rejected, duplicate)
				// of the sources removed; one source is one statement.
				bar := newProgress(false, "removing sources", "games", games)
				defer bar.finish()
				var done int64
				for i, id := range ids {
					r, err := schema.RemoveSource(cmd.Context(), pool, id)
					if err != nil {
						bar.finish()
						if cmd.Context().Err() != nil {
							return interrupted(cmd.Context(), err, "sources remove",
								fmt.Sprintf("%d of the %d sources were removed before; source %d and those after it are whole", i, len(ids), id))
						}
						return fmt.Errorf("removing source %d: %w", id, err)
					}
					s := r.Source
					done += s.Games + s.Rejected + s.Duplicates
					bar.above(out, fmt.Sprintf("removed source %d %q (%s): %d games, %d rejected, %d duplicates",
						s.ID, s.Name, s.Kind, s.Games, s.Rejected, s.Duplicates))
					bar.set(done)
					if r.Orphans > 0 {
						fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: note: %d games of other sources were duplicates of source %d's games and are not stored; import their sources again with --force to store them\n", r.Orphans, s.ID)
					}
				}
				return nil
			},
		},
		&cobra.Command{
			Use:   "rename ID|NAME NEW-NAME",
			Short: "Give a source another name",
			Args:  cobra.ExactArgs(2),
			RunE: func(cmd *cobra.Command, args []string) error {
				pool, err := openDatabase(cmd.Context(), a.cfg)
				if err != nil {
					return err
				}
				defer pool.Close()
				s, err := schema.FindSource(cmd.Context(), pool, args[0])
				if err != nil {
					return err
				}
				if err := schema.RenameSource(cmd.Context(), pool, s.ID, args[1]); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "renamed source %d %q to %q\n", s.ID, s.Name, args[1])
				return nil
			},
		},
	)
	return cmd
}
