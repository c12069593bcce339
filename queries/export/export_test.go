package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// shared holds gzipped copies of the shared PDN archives.
const shared = "../../ingest/pdn/testdata/shared"

// sharedInputs are the archives the tests import: every shared archive but
// english/OCA_2.0 (22,000 more English games, which make no other case):
// international (mobydam), the online sites (every variant, some
// unsupported), the PDN test suite (succeed and fail, so rejected games
// too, and engine [%eval] comments).
var sharedInputs = []string{shared + "/international", shared + "/online", shared + "/testsuite"}

// sharedDB imports sharedInputs and adds evaluations: the
// builtin engine at depth 2 on the positions of 40 games, and a second,
// deeper "engine" with awkward names, NULL best moves and mates on a
// third of the same positions (so positions exports pick it there).
func sharedDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	sum, err := ingest.Import(ctx, pool, sharedInputs, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported < 2000 || sum.Rejected == 0 {
		t.Fatalf("import of the shared archives: %+v", sum)
	}
	_, err = annotate.Run(ctx, pool, annotate.Options{
		Engine: "draughtsdb", EngineVersion: "test", Setting: "depth=2",
		NewEvaluator: func() (annotate.Evaluator, error) { return annotate.NewBuiltin(annotate.Limit{Depth: 2}, 1), nil },
		Workers:      2, Where: "variant IN (20, 25) OR id % 997 = 0", Limit: 40, MaxPly: 30,
		Thresholds: annotate.Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at)
		SELECT variant, hash, 'odd  engine [x] {y} 100% "q"', 'depth=9', -score - 3, hash % 2 = 0, depth + 7,
		       CASE WHEN hash % 5 = 0 THEN NULL ELSE best_move END, trim(pv || ' ' || coalesce(best_move, '')), nodes * 3, time_ms + 1, 'v 2 ',
		       evaluated_at - interval '1 day 1 microsecond'
		FROM evaluations WHERE engine = 'draughtsdb' AND hash % 3 = 0`); err != nil {
		t.Fatal(err)
	}
	return pool
}

func sqlCount(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// exportTo runs an export into dir/name and returns the path.
func exportTo(t *testing.T, pool *pgxpool.Pool, dir, name string, o Options) (string, *Summary) {
	t.Helper()
	path := filepath.Join(dir, name)
	out, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), pool, out, o)
	if err != nil {
		out.Abort()
		t.Fatalf("export %s: %v", name, err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path, sum
}

func open(t *testing.T, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		return zr
	}
	return f
}

// jsonlRows streams the objects of a JSON lines file.
type jsonlRows struct {
	sc   *bufio.Scanner
	cols []Column
}

func newJSONLRows(t *testing.T, path string, cols []Column) *jsonlRows {
	sc := bufio.NewScanner(open(t, path))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	return &jsonlRows{sc: sc, cols: cols}
}

// next returns the next row's values in column order, checking that the
// object has exactly the columns, in order.
func (j *jsonlRows) next(t *testing.T) ([]any, bool) {
	t.Helper()
	if !j.sc.Scan() {
		if err := j.sc.Err(); err != nil {
			t.Fatal(err)
		}
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(j.sc.Bytes()))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("line %q: %v", j.sc.Text(), err)
	}
	vals := make([]any, 0, len(j.cols))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		if k := len(vals); k >= len(j.cols) || tok != j.cols[k].Name {
			t.Fatalf("key %v at %d, want the columns in order: %q", tok, k, j.sc.Text())
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	if len(vals) != len(j.cols) {
		t.Fatalf("%d values, want %d: %q", len(vals), len(j.cols), j.sc.Text())
	}
	return vals, true
}

// jsonText is the CSV text of a JSON lines value.
func jsonText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// compareCSV checks that the CSV file has the header and, row by row, the
// values of the JSON lines file; it returns the number of rows.
func compareCSV(t *testing.T, csvPath, jsonlPath string, cols []Column) int64 {
	t.Helper()
	cr := csv.NewReader(open(t, csvPath))
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cols {
		if head[i] != c.Name {
			t.Fatalf("CSV header %v", head)
		}
	}
	jr := newJSONLRows(t, jsonlPath, cols)
	var n int64
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		vals, ok := jr.next(t)
		if !ok {
			t.Fatalf("CSV has more rows than JSON lines (%d)", n)
		}
		for i, v := range vals {
			// encoding/csv drops the \r of \r\n inside quoted fields.
			if rec[i] != strings.ReplaceAll(jsonText(v), "\r\n", "\n") {
				t.Fatalf("row %d column %s: CSV %q, JSON %v", n, cols[i].Name, rec[i], v)
			}
		}
		n++
	}
	if _, more := jr.next(t); more {
		t.Fatalf("JSON lines has more rows than CSV (%d)", n)
	}
	return n
}

// compareParquet reads the Parquet file with Apache Arrow's reader (an
// implementation independent of the writer's parquet-go), checks the
// physical types, the dictionary encoding of the Dict columns and the
// row groups, and compares every value with the JSON lines file. It
// returns the number of rows and of row groups.
func compareParquet(t *testing.T, pqPath, jsonlPath string, cols []Column) (rows int64, groups int) {
	t.Helper()
	rdr, err := file.OpenParquetFile(pqPath, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	md := rdr.MetaData()
	if md.Schema.NumColumns() != len(cols) {
		t.Fatalf("%d Parquet columns, want %d", md.Schema.NumColumns(), len(cols))
	}
	wantPhys := map[Kind]pq.Type{String: pq.Types.ByteArray, Int: pq.Types.Int64, Float: pq.Types.Double, Bool: pq.Types.Boolean, Time: pq.Types.Int64}
	for i, c := range cols {
		d := md.Schema.Column(i)
		if d.Name() != c.Name || d.PhysicalType() != wantPhys[c.Kind] {
			t.Errorf("column %d: %s %v, want %s %v", i, d.Name(), d.PhysicalType(), c.Name, wantPhys[c.Kind])
		}
		if (d.MaxDefinitionLevel() == 1) != c.Nullable {
			t.Errorf("column %s: max definition level %d, nullable %v", c.Name, d.MaxDefinitionLevel(), c.Nullable)
		}
	}
	for g := 0; g < rdr.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		for i, c := range cols {
			cc, err := rg.ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			dict := slices.Contains(cc.Encodings(), pq.Encodings.RLEDict)
			if c.Dict && !dict {
				t.Errorf("row group %d column %s: encodings %v, want RLE_DICTIONARY", g, c.Name, cc.Encodings())
			}
		}
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	jr := newJSONLRows(t, jsonlPath, cols)
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			vals, ok := jr.next(t)
			if !ok {
				t.Fatalf("Parquet has more rows than JSON lines (%d)", rows)
			}
			for i, c := range cols {
				if err := sameValue(rec.Column(i), r, c, vals[i]); err != nil {
					t.Fatalf("row %d column %s: %v", rows, c.Name, err)
				}
			}
			rows++
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	if _, more := jr.next(t); more {
		t.Fatalf("JSON lines has more rows than Parquet (%d)", rows)
	}
	return rows, rdr.NumRowGroups()
}

// sameValue compares row r of an Arrow column with a JSON lines value.
func sameValue(col arrow.Array, r int, c Column, want any) error {
	if col.IsNull(r) || want == nil {
		if col.IsNull(r) != (want == nil) {
			return fmt.Errorf("Parquet null %v, JSON %v", col.IsNull(r), want)
		}
		return nil
	}
	var got string
	switch a := col.(type) {
	case *array.String:
		got = a.Value(r)
	case *array.Int64:
		got = strconv.FormatInt(a.Value(r), 10)
	case *array.Float64:
		got = strconv.FormatFloat(a.Value(r), 'g', -1, 64)
	case *array.Boolean:
		got = strconv.FormatBool(a.Value(r))
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType)
		if unit.Unit != arrow.Microsecond || unit.TimeZone != "UTC" {
			return fmt.Errorf("timestamp type %v", unit)
		}
		got = time.UnixMicro(int64(a.Value(r))).UTC().Format(time.RFC3339Nano)
	default:
		return fmt.Errorf("unexpected Arrow type %v for a %v column", col.DataType(), c.Kind)
	}
	if got != jsonText(want) {
		return fmt.Errorf("Parquet %q, JSON %q", got, jsonText(want))
	}
	return nil
}

// TestExports runs the export tests on one database imported from the
// shared archives (see sharedDB).
func TestExports(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	runExportTests(t, sharedDB(t), true)
}

// runExportTests runs the export checks on pool, which they only read, in
// parallel: the work is mostly the server's, in one backend per export.
// The full openings export (the slowest: a walk of the tree, a batch of
// queries per ply) and the openings the games give are made once and
// shared by the checks that need them.
func runExportTests(t *testing.T, pool *pgxpool.Pool, all bool) {
	f := &fixture{pool: pool, dir: t.TempDir()}
	par := func(name string, fn func(t *testing.T, f *fixture)) {
		t.Run(name, func(t *testing.T) { t.Parallel(); fn(t, f) })
	}
	par("EveryFormatOfEveryWhat", testEveryFormatOfEveryWhat)
	par("PositionsAgreeWithGamesAndEvaluations", testPositionsAgreeWithGamesAndEvaluations)
	if all {
		par("DistinctPositionsAggregate", testDistinctPositionsAggregate)
	}
	par("PDNRoundTrip", testPDNRoundTrip)
	if all {
		par("Filters", testFilters)
	}
	par("Openings", testOpeningsExport)
}

// fixture is one database the export tests read, with what several of
// them need made once: the first test to ask makes it, on its own t (a
// failure fails that test, and the next to ask tries again).
type fixture struct {
	pool *pgxpool.Pool
	dir  string

	openingsMu sync.Mutex
	openings   *exported // the full --what openings export, JSON lines
	wantMu     sync.Mutex
	want       map[string]*openingRow // expectedOpenings of the database
}

// exported is an export's file and summary.
type exported struct {
	path string
	sum  *Summary
}

// openingsJSONL is the shared full openings export.
func (f *fixture) openingsJSONL(t *testing.T) (string, *Summary) {
	t.Helper()
	f.openingsMu.Lock()
	defer f.openingsMu.Unlock()
	if f.openings == nil {
		path, sum := exportTo(t, f.pool, f.dir, "openings-shared.jsonl", Options{What: Openings, Format: JSONL})
		f.openings = &exported{path, sum}
	}
	return f.openings.path, f.openings.sum
}

// wantOpenings is expectedOpenings of the database, computed once.
func (f *fixture) wantOpenings(t *testing.T) map[string]*openingRow {
	t.Helper()
	f.wantMu.Lock()
	defer f.wantMu.Unlock()
	if f.want == nil {
		f.want = expectedOpenings(t, f.pool)
	}
	return f.want
}

// testEveryFormatOfEveryWhat exports everything in every format from the
// shared archives, checks the row counts against SQL, the CSV and the
// Parquet (read by Apache Arrow) value by value against the JSON lines,
// and the PDN exports.
func testEveryFormatOfEveryWhat(t *testing.T, f *fixture) {
	pool := f.pool
	dir := t.TempDir()
	want := map[string]int64{
		"games":       sqlCount(t, pool, `SELECT count(*) FROM games`),
		"positions":   sqlCount(t, pool, `SELECT sum(ply_count + 1) FROM games`),
		"evaluations": sqlCount(t, pool, `SELECT count(*) FROM evaluations`),
		"rejected":    sqlCount(t, pool, `SELECT count(*) FROM rejected_games`),
		"openings":    int64(len(f.wantOpenings(t))),
		// The position index holds 44 bits of the hash of every position
		// of every game (a collision among 10^5 positions is unlikely);
		// the variant is the game's.
		"positions-distinct": sqlCount(t, pool, `SELECT count(*) FROM (
			SELECT DISTINCT g.variant, p.bucket, e.grp, e.key
			FROM position_index p, draughtsdb_position_entries(p.first_game, p.entries) e JOIN games g ON g.id = e.game_id) x`),
	}
	for _, set := range ColumnSets() {
		name := set.What
		if set.Distinct {
			name += "-distinct"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := Options{What: set.What, Distinct: set.Distinct, RowGroupRows: 200000}
			o.Format = JSONL
			var jsonl string
			var sum *Summary
			if set.What == Openings && !set.Distinct {
				// The shared export: the same options but
				// RowGroupRows, which only Parquet reads.
				jsonl, sum = f.openingsJSONL(t)
			} else {
				jsonl, sum = exportTo(t, pool, dir, name+".jsonl", o)
			}
			o.Format = CSV
			csvPath, _ := exportTo(t, pool, dir, name+".csv.gz", o)
			o.Format = Parquet
			pqPath, _ := exportTo(t, pool, dir, name+".parquet", o)
			if sum.Rows != want[name] {
				t.Errorf("%d rows exported, SQL counts %d", sum.Rows, want[name])
			}
			if n := compareCSV(t, csvPath, jsonl, set.Columns); n != want[name] {
				t.Errorf("CSV: %d rows, want %d", n, want[name])
			}
			n, groups := compareParquet(t, pqPath, jsonl, set.Columns)
			if n != want[name] {
				t.Errorf("Parquet: %d rows, want %d", n, want[name])
			}
			if wantGroups := int((n + 199999) / 200000); groups != max(wantGroups, 1) {
				t.Errorf("Parquet: %d row groups of at most 200000 rows for %d rows", groups, n)
			}
			t.Logf("%d rows; Parquet %d row groups", n, groups)
		})
	}
	t.Run("games-pdn", func(t *testing.T) {
		t.Parallel()
		path, sum := exportTo(t, pool, dir, "games.pdn.gz", Options{What: Games, Format: PDN})
		rd := pdn.NewReader(open(t, path), path)
		var n int64
		evals := 0
		for {
			g, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, m := range g.Moves {
				for _, c := range m.Comments() {
					if strings.Contains(c, "[%eval") {
						evals++
					}
				}
			}
		}
		if n != want["games"] || sum.Rows != n {
			t.Errorf("PDN: %d games read, %d written, want %d", n, sum.Rows, want["games"])
		}
		if evals == 0 {
			t.Error("no evaluation comment in the PDN")
		}
	})
	t.Run("rejected-pdn", func(t *testing.T) {
		t.Parallel()
		path, sum := exportTo(t, pool, dir, "rejected.pdn", Options{What: Rejected, Format: PDN})
		got, _ := os.ReadFile(path)
		var wantBytes []byte
		rows, err := pool.Query(context.Background(), `SELECT raw FROM rejected_games ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var raw []byte
			rows.Scan(&raw)
			wantBytes = append(wantBytes, raw...)
			if len(raw) > 0 && raw[len(raw)-1] == '\n' {
				wantBytes = append(wantBytes, '\n')
			} else {
				wantBytes = append(wantBytes, '\n', '\n')
			}
		}
		if !bytes.Equal(got, wantBytes) || sum.Rows != want["rejected"] {
			t.Errorf("rejected PDN: %d bytes, %d games; want the raw bytes of %d games (%d bytes)", len(got), sum.Rows, want["rejected"], len(wantBytes))
		}
	})
}

// testPositionsAgreeWithGamesAndEvaluations checks the positions export
// row by row against the games export and table evaluations: positions
// 0..ply_count of every game in order; FEN and Zobrist agree (the FEN
// parsed gives the hash); the moves column replays games.moves (rendered
// without replay) move by move; the result is the game's from the side to
// move's view; the evaluation is the deepest, then latest, one.
func testPositionsAgreeWithGamesAndEvaluations(t *testing.T, f *fixture) {
	pool := f.pool
	ctx := context.Background()
	dir := t.TempDir()
	gamesPath, _ := exportTo(t, pool, dir, "games.jsonl", Options{What: Games, Format: JSONL})
	posPath, _ := exportTo(t, pool, dir, "positions.jsonl", Options{What: Positions, Format: JSONL})

	type evalRow struct {
		score, depth    int64
		mate            bool
		best            *string
		engine, setting string
		at              time.Time
	}
	best := map[string]evalRow{} // variant|zobrist -> the chosen evaluation
	rows, err := pool.Query(ctx, `SELECT variant, hash, score, depth, mate, best_move, engine, setting, evaluated_at FROM evaluations`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v int16
		var h int64
		var e evalRow
		if err := rows.Scan(&v, &h, &e.score, &e.depth, &e.mate, &e.best, &e.engine, &e.setting, &e.at); err != nil {
			t.Fatal(err)
		}
		k := variantName(v) + "|" + hex64(uint64(h))
		old, ok := best[k]
		better := !ok || e.depth > old.depth || e.depth == old.depth && (e.at.After(old.at) ||
			e.at.Equal(old.at) && (e.engine < old.engine || e.engine == old.engine && e.setting < old.setting))
		if better {
			best[k] = e
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}

	gr := newJSONLRows(t, gamesPath, gameColumns)
	pr := newJSONLRows(t, posPath, positionColumns)
	col := func(cols []Column, name string) int {
		for i, c := range cols {
			if c.Name == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	gi := func(name string) int { return col(gameColumns, name) }
	pi := func(name string) int { return col(positionColumns, name) }
	games, positions, evaluated := 0, 0, 0
	for {
		g, ok := gr.next(t)
		if !ok {
			break
		}
		games++
		v, err := rules.VariantByName(g[gi("variant")].(string))
		if err != nil {
			t.Fatal(err)
		}
		plies, _ := g[gi("ply_count")].(json.Number).Int64()
		moves := strings.Fields(g[gi("moves")].(string))
		if int64(len(moves)) != plies {
			t.Fatalf("game %v: %d moves for ply_count %d", g[0], len(moves), plies)
		}
		for ply := int64(0); ply <= plies; ply++ {
			p, ok := pr.next(t)
			if !ok {
				t.Fatalf("positions end in game %v", g[0])
			}
			positions++
			if p[pi("game_id")] != g[gi("id")] || p[pi("ply")].(json.Number).String() != strconv.FormatInt(ply, 10) {
				t.Fatalf("position %v/%v, want game %v ply %d", p[0], p[1], g[0], ply)
			}
			fen := p[pi("fen")].(string)
			pos, err := rules.ParseFEN(v, fen)
			if err != nil {
				t.Fatalf("game %v ply %d: %v", g[0], ply, err)
			}
			if hex64(pos.Hash()) != p[pi("zobrist")] || sideName(pos.SideToMove()) != p[pi("side_to_move")] {
				t.Fatalf("game %v ply %d: FEN %s gives %s %s, row says %v %v", g[0], ply, fen, hex64(pos.Hash()), sideName(pos.SideToMove()), p[pi("zobrist")], p[pi("side_to_move")])
			}
			if ply == 0 {
				startFEN := v.StartPosition()
				if s, ok := g[gi("start_fen")].(string); ok {
					if startFEN, err = rules.ParseFEN(v, s); err != nil {
						t.Fatal(err)
					}
				}
				if startFEN.Hash() != pos.Hash() {
					t.Fatalf("game %v starts at %s", g[0], fen)
				}
			}
			if ply < plies && p[pi("move")] != moves[ply] || ply == plies && p[pi("move")] != nil {
				t.Fatalf("game %v ply %d: move %v, games.moves has %v", g[0], ply, p[pi("move")], moves)
			}
			wantResult := g[gi("white_score")]
			if wantResult != nil && pos.SideToMove() == rules.Black {
				ws, _ := wantResult.(json.Number).Float64()
				if ws != 0.5 {
					wantResult = json.Number(strconv.FormatFloat(1-ws, 'g', -1, 64))
				}
				if g[gi("result")] == "0-0" {
					wantResult = json.Number("0")
				}
			}
			if jsonText(p[pi("result")]) != jsonText(wantResult) {
				t.Fatalf("game %v (%v) ply %d (%s to move): result %v, want %v", g[0], g[gi("result")], ply, sideName(pos.SideToMove()), p[pi("result")], wantResult)
			}
			e, has := best[v.Name+"|"+hex64(pos.Hash())]
			if !has {
				if p[pi("eval_score")] != nil || p[pi("best_move")] != nil || p[pi("eval_engine")] != nil {
					t.Fatalf("game %v ply %d: evaluation %v without one in the table", g[0], ply, p[pi("eval_score")])
				}
				continue
			}
			evaluated++
			wantBest := any(nil)
			if e.best != nil {
				wantBest = *e.best
			}
			if jsonText(p[pi("eval_score")]) != strconv.FormatInt(e.score, 10) || p[pi("eval_mate")] != e.mate ||
				jsonText(p[pi("eval_depth")]) != strconv.FormatInt(e.depth, 10) || p[pi("best_move")] != wantBest ||
				p[pi("eval_engine")] != e.engine || p[pi("eval_setting")] != e.setting {
				t.Fatalf("game %v ply %d: evaluation %v, want %+v", g[0], ply, p[8:], e)
			}
		}
	}
	if _, more := pr.next(t); more {
		t.Fatal("positions after the last game")
	}
	if evaluated == 0 {
		t.Fatal("no position has an evaluation")
	}
	t.Logf("%d games, %d positions, %d with an evaluation", games, positions, evaluated)
}

// testDistinctPositionsAggregate checks --distinct against the per-ply
// export: one row per distinct (variant, zobrist) with its FEN, the games
// reaching it and their results from the side to move's view.
func testDistinctPositionsAggregate(t *testing.T, f *fixture) {
	pool := f.pool
	dir := t.TempDir()
	filter := Filter{Variant: rules.International}
	posPath, _ := exportTo(t, pool, dir, "positions.jsonl", Options{What: Positions, Format: JSONL, Filter: filter})
	disPath, _ := exportTo(t, pool, dir, "distinct.jsonl", Options{What: Positions, Distinct: true, Format: JSONL, Filter: filter})
	type agg struct {
		fen                              string
		games, wins, draws, losses, unkn int64
		minPly                           int64
		seen                             map[string]bool
	}
	want := map[string]*agg{}
	pr := newJSONLRows(t, posPath, positionColumns)
	for {
		p, ok := pr.next(t)
		if !ok {
			break
		}
		k := p[2].(string) + "|" + p[4].(string)
		a := want[k]
		if a == nil {
			a = &agg{fen: p[3].(string), minPly: 1 << 30, seen: map[string]bool{}}
			want[k] = a
		}
		ply, _ := p[1].(json.Number).Int64()
		a.minPly = min(a.minPly, ply)
		game := p[0].(json.Number).String()
		if a.seen[game] {
			continue
		}
		a.seen[game] = true
		a.games++
		switch jsonText(p[6]) {
		case "1":
			a.wins++
		case "0.5":
			a.draws++
		case "0":
			a.losses++
		default:
			a.unkn++
		}
	}
	dr := newJSONLRows(t, disPath, distinctColumns)
	n := 0
	lastGames := int64(1 << 62)
	for {
		d, ok := dr.next(t)
		if !ok {
			break
		}
		n++
		k := d[0].(string) + "|" + d[2].(string)
		a := want[k]
		if a == nil {
			t.Fatalf("distinct row %v is no position of the games", d)
		}
		games, _ := d[4].(json.Number).Int64()
		got := fmt.Sprintf("%v %d %v %v %v %v %v", d[1], games, d[5], d[6], d[7], d[8], d[10])
		if w := fmt.Sprintf("%s %d %d %d %d %d %d", a.fen, a.games, a.wins, a.draws, a.losses, a.unkn, a.minPly); got != w {
			t.Fatalf("%s: got %s, want %s", k, got, w)
		}
		if games > lastGames {
			t.Fatalf("not ordered by games: %d after %d", games, lastGames)
		}
		lastGames = games
		delete(want, k)
	}
	if len(want) > 0 || n == 0 {
		t.Fatalf("%d distinct rows; %d positions missing", n, len(want))
	}
}

// testPDNRoundTrip exports the games as PDN with their evaluations,
// imports the file into a fresh database and finds the same games (same
// moves_hash, tags, players, date, result, start) and the same
// evaluations, column by column.
func testPDNRoundTrip(t *testing.T, f *fixture) {
	pool := f.pool
	ctx := context.Background()
	dir := t.TempDir()
	path, sum := exportTo(t, pool, dir, "games.pdn", Options{What: Games, Format: PDN})
	fresh := pgtest.NewDB(t)
	isum, err := ingest.Import(ctx, fresh, []string{path}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if int64(isum.Imported) != sum.Rows || isum.Rejected != 0 || isum.Duplicates != 0 {
		t.Fatalf("re-import of %d games: %+v", sum.Rows, isum)
	}
	const gamesQ = `SELECT string_agg(x, E'\n' ORDER BY x) FROM (
		SELECT concat_ws('|', g.variant, g.moves_hash, g.date, g.event, g.site, g.round, w.name, b.name, g.result, g.ply_count,
		                 g.start_fen, g.final_hash, g.tags::text, encode(g.moves, 'hex'), g.result_proven, encode(g.annotations, 'hex')) AS x
		FROM games g LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id) s`
	const evalsQ = `SELECT count(*), string_agg(x, E'\n' ORDER BY x) FROM (
		SELECT concat_ws('|', variant, hash, engine, setting, score, mate, depth, coalesce(best_move, '<null>'), pv, nodes, time_ms,
		                 engine_version, to_char(evaluated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')) AS x
		FROM evaluations) s`
	var before, after string
	if err := pool.QueryRow(ctx, gamesQ).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if err := fresh.QueryRow(ctx, gamesQ).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if before != after {
		t.Errorf("games differ after the round trip:\n%s", firstDiff(before, after))
	}
	var nBefore, nAfter int64
	if err := pool.QueryRow(ctx, evalsQ).Scan(&nBefore, &before); err != nil {
		t.Fatal(err)
	}
	if err := fresh.QueryRow(ctx, evalsQ).Scan(&nAfter, &after); err != nil {
		t.Fatal(err)
	}
	if before != after || nBefore == 0 {
		t.Errorf("evaluations differ after the round trip (%d before, %d after):\n%s", nBefore, nAfter, firstDiff(before, after))
	}
	t.Logf("%d games and %d evaluations round-tripped", sum.Rows, nAfter)
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n before %s\n after  %s", i, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines before, %d after", len(al), len(bl))
}

// likeMatch is SQL's ILIKE, written independently of the export's SQL.
func likeMatch(pattern, s string) bool {
	var re strings.Builder
	re.WriteString("(?is)^")
	for _, r := range pattern {
		switch r {
		case '%':
			re.WriteString(".*")
		case '_':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re.WriteString("$")
	return regexp.MustCompile(re.String()).MatchString(s)
}

// testFilters exports games and positions under each filter and compares
// the rows with the unfiltered games export filtered in Go.
func testFilters(t *testing.T, f *fixture) {
	pool := f.pool
	ctx := context.Background()
	dir := t.TempDir()
	allPath, _ := exportTo(t, pool, dir, "all.jsonl", Options{What: Games, Format: JSONL})
	type game struct {
		id                           string
		variant, event, date, w, b   string
		hasEvent, hasWhite, hasBlack bool
		plies                        int64
	}
	var all []game
	jr := newJSONLRows(t, allPath, gameColumns)
	for {
		r, ok := jr.next(t)
		if !ok {
			break
		}
		g := game{id: jsonText(r[0]), variant: r[1].(string), date: r[4].(string)}
		g.event, g.hasEvent = r[2].(string)
		g.w, g.hasWhite = r[6].(string)
		g.b, g.hasBlack = r[7].(string)
		g.plies, _ = r[10].(json.Number).Int64()
		all = append(all, g)
	}
	var event, player string
	var middle string // event without its first and last characters
	if err := pool.QueryRow(ctx, `SELECT upper(event) FROM games WHERE event IS NOT NULL GROUP BY event ORDER BY count(*) DESC, event LIMIT 1`).Scan(&event); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT lower(name) FROM players p JOIN games g ON g.white_id = p.id GROUP BY name ORDER BY count(*) DESC, name LIMIT 1`).Scan(&player); err != nil {
		t.Fatal(err)
	}
	if r := []rune(event); len(r) > 2 {
		middle = string(r[1 : len(r)-1])
	}
	cases := []struct {
		name string
		f    Filter
		keep func(g game) bool
	}{
		{"variant", Filter{Variant: rules.International}, func(g game) bool { return g.variant == "international" }},
		{"event", Filter{Events: []string{event}}, func(g game) bool { return g.hasEvent && strings.EqualFold(g.event, event) }},
		{"event-pattern", Filter{Events: []string{"%" + middle + "_", "no such event"}}, func(g game) bool { return g.hasEvent && likeMatch("%"+middle+"_", g.event) }},
		{"player", Filter{Players: []string{player}}, func(g game) bool {
			return g.hasWhite && strings.EqualFold(g.w, player) || g.hasBlack && strings.EqualFold(g.b, player)
		}},
		{"dates", Filter{From: "1990", To: "2005-06"}, func(g game) bool {
			return !strings.HasPrefix(g.date, "????") && g.date[:4] >= "1990" && g.date[:7] <= "2005.06"
		}},
		{"from-day", Filter{From: "2010.05.17"}, func(g game) bool { return !strings.HasPrefix(g.date, "????") && g.date >= "2010.05.17" }},
		{"min-ply", Filter{MinPly: 60}, func(g game) bool { return g.plies >= 60 }},
		{"all", Filter{Variant: rules.International, From: "1900", MinPly: 10}, func(g game) bool {
			return g.variant == "international" && !strings.HasPrefix(g.date, "????") && g.date[:4] >= "1900" && g.plies >= 10
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var wantIDs []string
			var wantPositions int64
			for _, g := range all {
				if c.keep(g) {
					wantIDs = append(wantIDs, g.id)
					wantPositions += g.plies + 1
				}
			}
			if len(wantIDs) == 0 || len(wantIDs) == len(all) {
				t.Fatalf("filter %+v keeps %d of %d games: not a test", c.f, len(wantIDs), len(all))
			}
			path, _ := exportTo(t, pool, dir, c.name+".jsonl", Options{What: Games, Format: JSONL, Filter: c.f})
			var got []string
			jr := newJSONLRows(t, path, gameColumns)
			for {
				r, ok := jr.next(t)
				if !ok {
					break
				}
				got = append(got, jsonText(r[0]))
			}
			if !slices.Equal(got, wantIDs) {
				t.Errorf("%d games, want %d", len(got), len(wantIDs))
			}
			_, sum := exportTo(t, pool, dir, c.name+"-pos.csv", Options{What: Positions, Format: CSV, Filter: c.f})
			if sum.Rows != wantPositions {
				t.Errorf("%d positions, want %d", sum.Rows, wantPositions)
			}
		})
	}

	t.Run("evaluations", func(t *testing.T) {
		o := Options{What: Evaluations, Format: CSV, Filter: Filter{Variant: rules.International}, Engine: "draughtsdb", Setting: "depth=2"}
		_, sum := exportTo(t, pool, dir, "evals.csv", o)
		if want := sqlCount(t, pool, `SELECT count(*) FROM evaluations WHERE variant = 20 AND engine = 'draughtsdb' AND setting = 'depth=2'`); sum.Rows != want || want == 0 {
			t.Errorf("%d evaluations, want %d", sum.Rows, want)
		}
	})

	t.Run("errors", func(t *testing.T) {
		bad := []struct {
			o    Options
			want string
		}{
			{Options{What: Openings, Format: CSV, Filter: Filter{Players: []string{"x"}}}, "--what openings takes --variant"},
			{Options{What: Games, Format: CSV, MinGames: 3}, "--min-games and --max-ply are for --what openings"},
			{Options{What: Openings, Format: PDN}, "--format pdn is for --what games"},
			{Options{What: "moves", Format: CSV}, "--what must be one of"},
			{Options{What: Games, Format: "xml"}, "--format must be one of"},
			{Options{What: Positions, Format: PDN}, "--format pdn is for --what games and --what rejected"},
			{Options{What: Evaluations, Format: CSV, Filter: Filter{Players: []string{"x"}}}, "--what evaluations takes --variant"},
			{Options{What: Rejected, Format: CSV, Filter: Filter{MinPly: 3}}, "--what rejected takes no filter"},
			{Options{What: Games, Format: CSV, Filter: Filter{From: "May 1990"}}, `--from "May 1990"`},
			// Compared as text, these bounded nothing meant (a prefix).
			{Options{What: Games, Format: CSV, Filter: Filter{From: "1995.13"}}, `--from "1995.13": month 13 is not 01-12`},
			{Options{What: Games, Format: CSV, Filter: Filter{To: "1995-02-32"}}, `--to "1995-02-32": day 32 is not 01-31`},
			{Options{What: Games, Format: CSV, Distinct: true}, "--distinct is for --what positions"},
		}
		for _, b := range bad {
			_, err := Run(ctx, pool, io.Discard, b.o)
			if err == nil || !strings.Contains(err.Error(), b.want) {
				t.Errorf("%+v: error %v, want %q", b.o, err, b.want)
			}
		}
	})
}
