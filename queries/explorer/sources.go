package explorer

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries/export"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
)

// sourceParams are the parameters that choose the games' sources: a
// selection as draughtsdb_source_ids reads it (archive, match, all,
// source ids and names, comma-separated); absent or empty is archive.
var sourceParams = []string{"source"}

// sourceParam is the request's source selection, schema.DefaultSources
// when none is given.
func sourceParam(rq *request) string {
	if s := strings.TrimSpace(rq.get("source")); s != "" {
		return s
	}
	return schema.DefaultSources
}

// checkSources refuses a selection that names no source, with the reason
// (a typing mistake must not read as an empty tree).
func checkSources(ctx context.Context, tx pgx.Tx, sel string) error {
	if _, err := schema.ResolveSources(ctx, tx, sel); err != nil {
		return badRequest("source %s: %v", quote(sel), err)
	}
	return nil
}

// noSourceWithFilter refuses a source other than archive together with a
// player, event or date filter: the filtered counts read the games of the
// archive sources only, and a count of other games must not pass for one.
func noSourceWithFilter(sel string, f *filter) error {
	if sel != schema.DefaultSources && !f.empty() {
		return badRequest("source %s with a player, event or date filter: the filtered counts cover the archive sources only; leave one of them out", quote(sel))
	}
	return nil
}

// Download formats of /api/download.
var downloadTypes = map[string]string{export.PDN: "application/x-draughts-pdn; charset=utf-8", export.CSV: "text/csv; charset=utf-8"}

// download answers /api/download: the games of the selected sources that
// reach the position (by any move order), as PDN or CSV (format), written
// by queries/export as `draughtsdb export --what games --fen/--moves`
// writes them. It reads every such game, so it passes the expensive gate.
func (s *Server) download() http.Handler {
	allowed := append(append([]string{}, positionParams...), "source", "format")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.RequestTimeout)
		defer cancel()
		fail := func(err error) {
			status, msg, retry := s.classify(ctx, r, err)
			setRetryAfter(w, retry)
			writeError(w, status, msg)
		}
		rq, err := parseRequest(r, allowed)
		if err != nil {
			fail(err)
			return
		}
		format := rq.get("format")
		if format == "" {
			format = export.PDN
		}
		ctype, ok := downloadTypes[format]
		if !ok {
			fail(badRequest("format %s: want pdn or csv", quote(format)))
			return
		}
		release, err := s.expensive.enter(ctx, clientOf(r))
		if err != nil {
			fail(err)
			return
		}
		defer release()
		p, err := s.positionParam(rq)
		if err != nil {
			fail(err)
			return
		}
		sel := sourceParam(rq)
		if err := s.read(ctx, func(tx pgx.Tx) error { return checkSources(ctx, tx, sel) }); err != nil {
			fail(err)
			return
		}
		hash := p.line.Final.Hash()
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.%s"`, p.v.Name, hashText(hash), format))
		o := export.Options{What: export.Games, Format: format, Filter: export.Filter{Variant: p.v, Sources: sel,
			Positions: []export.At{{Variant: p.v, Hash: hash}}}}
		if _, err := export.Run(ctx, s.pool, w, o); err != nil {
			// The header is gone once rows are written: the log has the
			// cause and the file ends short.
			s.logf("error: %s %s: %v", r.Method, r.URL.Path, err)
		}
	})
}
