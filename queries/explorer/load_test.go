package explorer

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// BenchmarkExplorerLoad is the explorer under attack, `draughtsdb serve`
// binaries side by side on one database: for each binary in turn, its
// server on loopback, DRAUGHTSDB_LOAD_CLIENTS (16) clients sending
// expensive requests for DRAUGHTSDB_LOAD_SECONDS (30) — filtered trees at
// the start and after a move (`/api/openings?variant=international&from=
// 1990&to=2025` and other years), games-list cursors of a deep offset made
// up as the unsigned cursors could be (sha256 of public values), and
// filtered games lists followed page by page — while one client sends
// cheap requests, unfiltered trees at positions of 0-3 plies (each asked
// once before, so that its page of games is kept). It reports the cheap
// requests' p50 and p99, the answers by status, the answered filtered
// trees' p50 and p99, and the server's peak RSS
// (VmHWM). Each client connects from an address of its own (127.0.0.10
// and up; the cheap one 127.0.0.200). A binary's entry may carry flags of
// its serve after the path (after4=/tmp/draughtsdb --max-expensive 3).
// The trees' years repeat, so most are answered from the trees kept;
// DRAUGHTSDB_LOAD_DAYS=1 asks a random day instead (from=1990.MM.DD),
// nearly every tree a new one. Nothing is asserted; it is not in the
// default run:
//
//	draughtsdb gen --variant international --games 500000 --seed 1 --out g.pdn
//	draughtsdb --data-dir /tmp/load import g.pdn
//	DRAUGHTSDB_LOAD_DATA_DIR=/tmp/load \
//	DRAUGHTSDB_LOAD_BINARIES=before=/tmp/draughtsdb-old,after=/tmp/draughtsdb \
//	    go test -run XXX -bench ExplorerLoad -benchtime 1x -timeout 30m -v ./queries/explorer
func BenchmarkExplorerLoad(b *testing.B) {
	dataDir, bins := os.Getenv("DRAUGHTSDB_LOAD_DATA_DIR"), os.Getenv("DRAUGHTSDB_LOAD_BINARIES")
	if dataDir == "" || bins == "" {
		b.Skip("DRAUGHTSDB_LOAD_DATA_DIR and DRAUGHTSDB_LOAD_BINARIES=name=path[ serve flags],... are not set")
	}
	clients, seconds := envInt("DRAUGHTSDB_LOAD_CLIENTS", 16), envInt("DRAUGHTSDB_LOAD_SECONDS", 30)
	loadDays = os.Getenv("DRAUGHTSDB_LOAD_DAYS") != ""
	var results []string
	for _, nb := range strings.Split(bins, ",") {
		name, bin, ok := strings.Cut(nb, "=")
		if !ok {
			b.Fatalf("DRAUGHTSDB_LOAD_BINARIES: %q is not name=path", nb)
		}
		r := loadRun(b, bin, dataDir, clients, time.Duration(seconds)*time.Second)
		results = append(results, fmt.Sprintf("%-8s %s", name, r))
		b.Logf("%s: %s", name, r)
	}
	b.Logf("%d expensive clients and 1 cheap client for %d s each, side by side:\n%s", clients, seconds, strings.Join(results, "\n"))
}

// loadDays: the filtered trees from a random day, not a year.
var loadDays bool

// loadRun starts bin's server on dataDir, loads it and stops it.
func loadRun(b *testing.B, bin, dataDir string, clients int, d time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	args := strings.Fields(bin)
	cmd := exec.Command(args[0], append([]string{"--data-dir", dataDir, "serve", "--listen", addr}, args[1:]...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT) //nolint:errcheck // it may have exited
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }() //nolint:errcheck // its status says nothing here
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill() //nolint:errcheck
			<-done
		}
	}()
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			if strings.Contains(sc.Text(), "explorer on http://") {
				once.Do(func() { close(ready) })
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(2 * time.Minute):
		b.Fatalf("%s serve did not start", bin)
	}
	base := "http://" + addr
	cheap := cheapLines(b, base)
	client := &http.Client{Timeout: 2 * time.Minute}
	for _, u := range cheap { // each page of games kept, as a visitor's
		fetch(client, base+u) //nolint:errcheck
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var (
		mu           sync.Mutex
		cheapLat     []time.Duration
		treeLat      []time.Duration
		cheapStatus  = map[int]int{}
		costlyStatus = map[int]int{}
		wg           sync.WaitGroup
	)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			c := clientFrom(10 + i)
			next := ""
			for ctx.Err() == nil {
				var u string
				from := strconv.Itoa(1990 + rng.IntN(20))
				if loadDays {
					from += fmt.Sprintf(".%02d.%02d", 1+rng.IntN(12), 1+rng.IntN(28))
				}
				switch i % 4 {
				case 0:
					u = "/api/openings?variant=international&to=2025&from=" + from
				case 1:
					first := []string{"32-28", "33-28", "34-30", "31-27", "33-29", "34-29", "32-27", "35-30", "31-26"}
					u = fmt.Sprintf("/api/openings?variant=international&moves=%s&from=%s", first[rng.IntN(len(first))], from)
				case 2:
					u = "/api/games?variant=international&limit=100&cursor=" + madeUpCursor(100_000+rng.IntN(300_000))
				default:
					u = "/api/games?variant=international&from=1990&limit=100"
					if next != "" {
						u += "&cursor=" + url.QueryEscape(next)
					}
				}
				start := time.Now()
				st, body, err := fetch(c, base+u)
				if ctx.Err() != nil {
					return
				}
				if i%4 < 2 && st == 200 {
					mu.Lock()
					treeLat = append(treeLat, time.Since(start))
					mu.Unlock()
				}
				next = ""
				if i%4 == 3 && st == 200 {
					var p struct {
						NextCursor string `json:"next_cursor"`
					}
					if json.Unmarshal(body, &p) == nil {
						next = p.NextCursor
					}
				}
				if err != nil {
					st = -1
				}
				mu.Lock()
				costlyStatus[st]++
				mu.Unlock()
				if st == 429 || st == 503 {
					// As a client honouring Retry-After would not; an
					// attacker retries at once, after a breath.
					time.Sleep(10 * time.Millisecond)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		client := clientFrom(200)
		rng := rand.New(rand.NewPCG(99, 7))
		for ctx.Err() == nil {
			u := cheap[rng.IntN(len(cheap))]
			start := time.Now()
			st, _, err := fetch(client, base+u)
			lat := time.Since(start)
			if err != nil {
				st = -1
			}
			mu.Lock()
			cheapLat = append(cheapLat, lat)
			cheapStatus[st]++
			mu.Unlock()
		}
	}()
	wg.Wait()
	rss := peakRSS(cmd.Process.Pid)
	slices.Sort(cheapLat)
	slices.Sort(treeLat)
	q := func(lat []time.Duration, p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(100 * time.Microsecond)
	}
	return fmt.Sprintf("cheap: %d requests, p50 %s, p99 %s, max %s, %s; expensive: %s, filtered trees answered p50 %s, p99 %s; server peak RSS %s",
		len(cheapLat), q(cheapLat, 0.50), q(cheapLat, 0.99), q(cheapLat, 1), statuses(cheapStatus), statuses(costlyStatus),
		q(treeLat, 0.5), q(treeLat, 0.99), rss)
}

// clientFrom is an HTTP client whose connections come from 127.0.0.n: on
// Linux all of 127.0.0.0/8 is loopback, so each client has an address of
// its own, as clients on other machines would.
func clientFrom(n int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(n))}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}}
}

func fetch(c *http.Client, u string) (int, []byte, error) {
	resp, err := c.Get(u)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// cheapLines are unfiltered trees at the start and the positions after
// the most played moves, 0 to 3 plies deep (as the server answers them).
func cheapLines(b *testing.B, base string) []string {
	c := &http.Client{Timeout: 5 * time.Minute}
	out := []string{"/api/openings?variant=international"}
	level := [][]string{nil}
	for depth := 0; depth < 3; depth++ {
		var nextLevel [][]string
		for _, line := range level {
			u := "/api/openings?variant=international&moves=" + url.QueryEscape(strings.Join(line, " "))
			st, body, err := fetch(c, base+u)
			if err != nil || st != 200 {
				b.Fatalf("%s: %d %v %s", u, st, err, body)
			}
			var ans struct {
				Moves []struct {
					Move string `json:"move"`
				} `json:"moves"`
			}
			if err := json.Unmarshal(body, &ans); err != nil {
				b.Fatal(err)
			}
			for _, m := range ans.Moves[:min(3, len(ans.Moves))] {
				l := append(slices.Clone(line), m.Move)
				nextLevel = append(nextLevel, l)
				out = append(out, "/api/openings?variant=international&moves="+url.QueryEscape(strings.Join(l, " ")))
			}
		}
		level = nextLevel
	}
	return out
}

// madeUpCursor is a cursor of the start position's unfiltered list at
// offset, made from public values as the unsigned cursors were: the
// first 4 bytes of the sha256 of the page's key, then the offset.
func madeUpCursor(offset int) string {
	start := rules.International.StartPosition()
	key := pageKey(rules.International, start.Hash(), &filter{})
	return base64.RawURLEncoding.EncodeToString(binary.AppendUvarint(slices.Clone(key[:4]), uint64(offset)))
}

func statuses(m map[int]int) string {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d: %d", k, m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// peakRSS is VmHWM of pid.
func peakRSS(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return fmt.Sprintf("%d MB", kb/1024)
		}
	}
	return "?"
}
