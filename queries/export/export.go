package export

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5/pgxpool"
)

// rowSource is one --what: its columns, the number of rows it will give
// (-1 when not known in advance) and the rows themselves, streamed.
type rowSource interface {
	columns() []Column
	count(ctx context.Context, s *session) (int64, error)
	rows(ctx context.Context, s *session, emit func([]Value) error) error
}

// pdnSource is a --what that --format pdn can write.
type pdnSource interface {
	writePDN(ctx context.Context, s *session, w io.Writer, progress func()) error
}

func sourceFor(o *Options) (rowSource, error) {
	switch o.What {
	case Games:
		return gamesSource{o}, nil
	case Positions:
		if o.Distinct {
			return distinctSource{o}, nil
		}
		return positionsSource{o}, nil
	case Evaluations:
		return evaluationsSource{o}, nil
	case Rejected:
		return rejectedSource{o}, nil
	case Openings:
		return openingsSource{o}, nil
	}
	return nil, fmt.Errorf("no such export: %q", o.What)
}

// ColumnSet is the columns of one --what (Distinct: positions --distinct).
type ColumnSet struct {
	What     string
	Distinct bool
	Columns  []Column
}

// ColumnSets lists the columns of every --what that has rows, for the
// manual and the tests.
func ColumnSets() []ColumnSet {
	return []ColumnSet{
		{What: Games, Columns: gameColumns},
		{What: Positions, Columns: positionColumns},
		{What: Positions, Distinct: true, Columns: distinctColumns},
		{What: Evaluations, Columns: evaluationColumns},
		{What: Openings, Columns: openingColumns},
		{What: Rejected, Columns: rejectedColumns},
	}
}

// Summary is what Run wrote.
type Summary struct {
	What          string  `json:"what"`
	Format        string  `json:"format"`
	Distinct      bool    `json:"distinct,omitempty"`
	Rows          int64   `json:"rows"` // games for --format pdn
	Seconds       float64 `json:"seconds"`
	RowsPerSecond float64 `json:"rows_per_second"`
}

// Run writes the export o describes to w. It reads one consistent snapshot
// of the database and keeps a bounded number of rows in memory, whatever
// their number. w is not closed.
func Run(ctx context.Context, pool *pgxpool.Pool, w io.Writer, o Options) (*Summary, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	src, err := sourceFor(&o)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var sum *Summary
	err = schema.WithReadSnapshot(ctx, pool, func(snap *schema.ReadSnapshot) error {
		s, err := newSession(ctx, snap, &o)
		if err != nil {
			return err
		}
		sum, err = write(ctx, s, src, w, &o)
		if err != nil {
			return err
		}
		sum.Seconds = time.Since(start).Seconds()
		if sum.Seconds > 0 {
			sum.RowsPerSecond = float64(sum.Rows) / sum.Seconds
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sum, nil
}

// write writes src's rows to w in s, as o asks.
func write(ctx context.Context, s *session, src rowSource, w io.Writer, o *Options) (*Summary, error) {
	if o.Total != nil {
		n, err := src.count(ctx, s)
		if err != nil {
			return nil, err
		}
		o.Total(n)
	}
	sum := &Summary{What: o.What, Format: o.Format, Distinct: o.Distinct}
	tick := func() {
		sum.Rows++
		if o.Progress != nil && sum.Rows&1023 == 0 {
			o.Progress(sum.Rows)
		}
	}
	var err error
	if o.Format == PDN {
		ps, ok := src.(pdnSource)
		if !ok {
			return nil, fmt.Errorf("--format pdn is not available for --what %s", o.What)
		}
		err = ps.writePDN(ctx, s, w, tick)
	} else {
		var rw rowWriter
		if rw, err = newRowWriter(o.Format, w, src.columns(), o); err != nil {
			return nil, err
		}
		err = src.rows(ctx, s, func(row []Value) error {
			tick()
			return rw.write(row)
		})
		if err == nil {
			err = rw.close()
		}
	}
	if err != nil {
		return nil, err
	}
	if o.Progress != nil {
		o.Progress(sum.Rows)
	}
	return sum, nil
}
