package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkImport imports OCA_2.0 and synthetic International games
// (default 20,000; DRAUGHTSDB_BENCH_GAMES takes a comma-separated list of
// sizes, e.g. 250000,1000000, measured in one run), then copies the
// rows the import produced (every table it writes: sources, players, games,
// position_index, opening_index, rejected_games, duplicates, evaluations)
// into a fresh database with plain COPY in one transaction, and reports:
// games/s, the ratio of the import time to the plain COPY time, database
// bytes per game (every table and index), and the process's peak RSS during
// the import (Linux's VmHWM, reset before it; with the garbage collector
// set as the draughtsdb command sets it). Per-table sizes, the CPU time of the import (this process
// and the PostgreSQL server, from /proc) and the time PostgreSQL spent running and waiting for a CPU
// are logged (-v). DRAUGHTSDB_BENCH_WORKERS sets the import's workers (default: the import's own).
//
//	DRAUGHTSDB_BENCH_GAMES=250000,1000000 go test -run XXX -bench 'Import$' -benchtime 1x -timeout 1h -v ./ingest
func BenchmarkImport(b *testing.B) {
	sizes := []int{20000}
	if s := os.Getenv("DRAUGHTSDB_BENCH_GAMES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	dir := b.TempDir()
	oca := filepath.Join(dir, "OCA_2.0.pdn")
	if err := gunzipTo(ocaPath, oca); err != nil {
		b.Fatal(err)
	}
	inputs := []struct{ name, path string }{{"OCA", oca}}
	for _, n := range sizes {
		path := filepath.Join(dir, fmt.Sprintf("synthetic-%d.pdn", n))
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := synth.Write(f, synth.Options{Variant: rules.International, Games: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		f.Close()
		inputs = append(inputs, struct{ name, path string }{fmt.Sprintf("synthetic-%d", n), path})
	}
	for _, c := range inputs {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				benchImportOnce(b, c.path)
			}
		})
	}
}

func benchImportOnce(b *testing.B, path string) {
	ctx := context.Background()
	pool := pgtest.NewDB(b)
	// The collector set as the draughtsdb command sets it (cmd/draughtsdb
	// main.go), so the RSS is the command's.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(160 << 20))
	runtime.GC()
	resetPeakRSS()
	pg0, cl0 := postgresCPU(pool), cpuSeconds()
	sched0 := postgresSched(pool)
	start := time.Now()
	workers, _ := strconv.Atoi(os.Getenv("DRAUGHTSDB_BENCH_WORKERS")) // 0: the import's default
	stopProfile := profileImport(b)
	sum, err := Import(ctx, pool, []string{path}, Options{BatchSize: benchBatch(), Workers: workers})
	stopProfile()
	if err != nil {
		b.Fatal(err)
	}
	importTime := time.Since(start)
	clientCPU, serverCPU := cpuSeconds()-cl0, postgresCPU(pool)-pg0
	peak := peakRSS()
	sched := postgresSched(pool)

	// Plain COPY of the same rows into the same (empty) tables.
	tables := []string{"sources", "players", "games", "position_index", "opening_index", "pattern_index", "rejected_games", "duplicates", "evaluations"}
	dumps := map[string]*bytes.Buffer{}
	for _, t := range tables {
		var buf bytes.Buffer
		conn, err := pool.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := conn.Conn().PgConn().CopyTo(ctx, &buf, "COPY "+t+" TO STDOUT (FORMAT binary)"); err != nil {
			b.Fatal(err)
		}
		conn.Release()
		dumps[t] = &buf
	}
	target := pgtest.NewDB(b)
	copyCPU0, copySched0 := postgresCPU(target), postgresSched(target)
	start = time.Now()
	conn, err := target.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range tables {
		if _, err := tx.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(dumps[t].Bytes()), "COPY "+t+" FROM STDIN (FORMAT binary)"); err != nil {
			b.Fatalf("copy %s: %v", t, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	copyTime := time.Since(start)
	conn.Release()
	copyCPU, copySched := postgresCPU(target)-copyCPU0, postgresSched(target)

	total, breakdown := databaseBytes(b, pool)
	games := float64(sum.Imported)
	b.ReportMetric(float64(sum.GamesRead)/importTime.Seconds(), "games/s")
	b.ReportMetric(importTime.Seconds()*1e6/float64(sum.GamesRead), "us/game")
	b.ReportMetric(importTime.Seconds()/copyTime.Seconds(), "import/COPY")
	b.ReportMetric(float64(total)/games, "bytes/game")
	b.ReportMetric(float64(peak)/(1<<20), "peakRSS-MB")
	b.Logf("%d games read, %d imported in %.2f s; plain COPY of the same rows %.2f s", sum.GamesRead, sum.Imported, importTime.Seconds(), copyTime.Seconds())
	b.Logf("CPU during the import: this process %.2f s, PostgreSQL %.2f s", clientCPU, serverCPU)
	b.Logf("PostgreSQL's processes during the import: running %.2f s, waiting for a CPU %.2f s", (sched[0]-sched0[0])/1e9, (sched[1]-sched0[1])/1e9)
	b.Logf("PostgreSQL during the plain COPY: CPU %.2f s, running %.2f s, waiting for a CPU %.2f s", copyCPU, (copySched[0]-copySched0[0])/1e9, (copySched[1]-copySched0[1])/1e9)
	for _, r := range breakdown {
		b.Logf("  %-28s %10d bytes  %7.1f bytes/game", r.name, r.bytes, float64(r.bytes)/games)
	}
}

// profileImport starts a CPU profile of the import alone (not of the
// synthetic archive's generation nor of the plain COPY) when
// DRAUGHTSDB_BENCH_CPUPROFILE names a file; -test.cpuprofile would mix
// them. It returns the function that stops it.
func profileImport(b *testing.B) func() {
	name := os.Getenv("DRAUGHTSDB_BENCH_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

type relSize struct {
	name  string
	bytes int64
}

// databaseBytes returns the size of every table and index of the schema.
func databaseBytes(b *testing.B, pool *pgxpool.Pool) (int64, []relSize) {
	rows, err := pool.Query(context.Background(), `
		SELECT c.relname, pg_relation_size(c.oid) + coalesce(pg_relation_size(c.reltoastrelid), 0)
		FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')
		ORDER BY 2 DESC`)
	if err != nil {
		b.Fatal(err)
	}
	var out []relSize
	var total int64
	for rows.Next() {
		var r relSize
		if err := rows.Scan(&r.name, &r.bytes); err != nil {
			b.Fatal(err)
		}
		total += r.bytes
		out = append(out, r)
	}
	return total, out
}

// benchBatch is the import batch size (DRAUGHTSDB_BENCH_BATCH, default 5000).
func benchBatch() int {
	if n, err := strconv.Atoi(os.Getenv("DRAUGHTSDB_BENCH_BATCH")); err == nil {
		return n
	}
	return 5000
}

// postgresCPU is the CPU time used so far by the PostgreSQL server that
// pool connects to (its postmaster and its children, found in /proc by
// the data directory); 0 where /proc cannot tell.
func postgresCPU(pool *pgxpool.Pool) float64 {
	tot := 0.0
	for _, p := range postgresProcs(pool) {
		tot += p.cpu
	}
	return tot
}

// postgresSched sums /proc/PID/schedstat over the processes of the
// PostgreSQL server that pool connects to: nanoseconds running, and
// waiting in a run queue for a CPU. What the import's wall time leaves
// besides these, the server slept: it waited for the import.
func postgresSched(pool *pgxpool.Pool) [2]float64 {
	var out [2]float64
	for pid := range postgresProcs(pool) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/schedstat")
		if f := strings.Fields(string(b)); len(f) >= 2 {
			run, _ := strconv.ParseFloat(f[0], 64)
			wait, _ := strconv.ParseFloat(f[1], 64)
			out[0] += run
			out[1] += wait
		}
	}
	return out
}

type postgresProc struct {
	ppid int
	cpu  float64 // seconds
}

// postgresProcs returns the processes of the PostgreSQL server that pool
// connects to: its postmaster, found in /proc by the data directory, and
// the postmaster's children.
func postgresProcs(pool *pgxpool.Pool) map[int]postgresProc {
	var dir string
	if err := pool.QueryRow(context.Background(), "SHOW data_directory").Scan(&dir); err != nil {
		return nil
	}
	procs := map[int]postgresProc{}
	master := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || !bytes.Contains(b, []byte("(postgres)")) {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		ppid, _ := strconv.Atoi(f[1])
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		procs[pid] = postgresProc{ppid, float64(u+s) / 100}
		if cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); bytes.Contains(cmd, []byte(dir+"\x00")) || bytes.HasSuffix(cmd, []byte(dir)) {
			master = pid
		}
	}
	out := map[int]postgresProc{}
	for pid, p := range procs {
		if master != 0 && (pid == master || p.ppid == master) {
			out[pid] = p
		}
	}
	return out
}

// resetPeakRSS resets the kernel's record of the process's peak RSS
// (VmHWM), so that peakRSS reports the peak from here on (Linux; elsewhere
// peakRSS reports the peak since the start).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) } //nolint:errcheck

// peakRSS returns the process's peak RSS in bytes: VmHWM, or the rusage
// maximum where /proc does not tell.
func peakRSS() int64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err == nil {
					return kb << 10
				}
			}
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss << 10
}
