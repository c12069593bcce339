package export

import (
	"context"
	"sync"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
)

// session is an export's view of the database: one snapshot
// (schema.ReadSnapshot), whose main transaction streams the rows and
// whose auxiliary one, when needed, serves the evaluation look-ups made
// meanwhile and holds the temporary table of distinct positions. So every
// row of an export comes from one consistent state of the database,
// whatever imports run meanwhile.
type session struct {
	snap  *schema.ReadSnapshot
	main  pgx.Tx
	auxMu sync.Mutex // the auxiliary transaction serves one query at a time

	evals    schema.ExportEvalFilter // engine and setting (nil: any)
	hasEvals bool                    // some evaluation passes them
}

func newSession(ctx context.Context, snap *schema.ReadSnapshot, o *Options) (*session, error) {
	s := &session{snap: snap, main: snap.Main()}
	if o.Engine != "" {
		s.evals.Engine = &o.Engine
	}
	if o.Setting != "" {
		s.evals.Setting = &o.Setting
	}
	var err error
	if s.hasEvals, err = schema.HasExportEvaluations(ctx, s.main, s.evals); err != nil {
		return nil, err
	}
	return s, nil
}

// auxTx returns the auxiliary transaction, opening it in the main one's
// snapshot on first use. It may write temporary tables. Callers on
// several goroutines hold auxMu while they use it.
func (s *session) auxTx(ctx context.Context) (pgx.Tx, error) {
	return s.snap.Aux(ctx)
}
