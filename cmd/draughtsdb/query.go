package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newQueryCommand(a *app) *cobra.Command {
	var (
		list   bool
		params []string
		format string
	)
	cmd := &cobra.Command{
		Use:   "query [--list] NAME [--param k=v ...] [--format table|csv|json]",
		Short: "Run a named SQL query (queries/sql/*.sql) and print its rows",
		Long: `Run one of draughtsdb's named SQL queries. --list shows them with their
parameters; the files are in queries/sql and run unchanged in psql (set each
parameter with -v name=value).

For a query with a hash parameter (a position's Zobrist hash), you may give
the position instead: --param fen=W:W31-50:B1-20, or --param moves="32-28
19-23" from the initial position, with --param variant=NAME.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if list {
				return listQueries(out)
			}
			q, err := queries.Lookup(args[0])
			if err != nil {
				return err
			}
			values := map[string]string{}
			for _, p := range params {
				k, v, ok := strings.Cut(p, "=")
				if !ok {
					return fmt.Errorf("--param %q: want name=value", p)
				}
				values[k] = v
			}
			if err := positionParams(q, values); err != nil {
				return err
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			res, err := queries.Run(cmd.Context(), pool, q, values)
			if err != nil {
				return err
			}
			switch format {
			case "table":
				return res.WriteTable(out)
			case "csv":
				return res.WriteCSV(out)
			case "json":
				return res.WriteJSON(out)
			}
			return fmt.Errorf("--format must be table, csv or json, not %q", format)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&list, "list", false, "list the named queries with their parameters")
	f.StringArrayVar(&params, "param", nil, "a parameter as name=value (repeat for several)")
	f.StringVar(&format, "format", "table", "output: table, csv or json (an array of objects)")
	return cmd
}

func listQueries(w io.Writer) error {
	all, err := queries.All()
	if err != nil {
		return err
	}
	for _, q := range all {
		fmt.Fprintf(w, "%s  (%s)\n    %s\n", q.Name, q.File, q.Description)
		for _, p := range q.Params {
			def := "required"
			if p.Default != nil {
				def = fmt.Sprintf("default %q", *p.Default)
			}
			fmt.Fprintf(w, "    --param %s=...  %s (%s)\n", p.Name, p.Description, def)
		}
	}
	return nil
}

// positionParams turns fen= or moves= (with variant=) into the hash
// parameter of queries that take a position.
func positionParams(q *queries.Query, values map[string]string) error {
	fen, hasFEN := values["fen"]
	moves, hasMoves := values["moves"]
	if !hasFEN && !hasMoves {
		return nil
	}
	delete(values, "fen")
	delete(values, "moves")
	if _, given := values["hash"]; given {
		return fmt.Errorf("give the position as hash, fen or moves, not several")
	}
	name := values["variant"]
	if name == "" {
		name = rules.Default.Name
	}
	v, err := flagVariant("--param variant", name)
	if err != nil {
		return err
	}
	toks, err := moveTokens(moves)
	if err != nil {
		return fmt.Errorf("--param moves=%q: %w", moves, err)
	}
	line, err := replay.PlayLine(v, fen, toks)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	values["hash"] = strconv.FormatInt(int64(line.Final.Hash()), 10)
	if q.Has("moves") && !q.Has("fen") {
		// A query that matches the move order itself (games_by_opening)
		// takes the moves as games.moves writes them: numeric, full paths.
		if fen != "" {
			return fmt.Errorf("query %s takes moves from the initial position, not a fen", q.Name)
		}
		text := make([]string, len(line.Moves))
		for i := range line.Moves {
			text[i] = rules.FormatMove(v, &line.Moves[i], rules.Numeric, true)
		}
		values["moves"] = strings.Join(text, " ")
	}
	return nil
}
