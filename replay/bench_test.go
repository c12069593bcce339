package replay

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
)

// BenchmarkReplayOCA measures replay alone (the games parsed beforehand) on
// the Open Checkers Archive, 22,621 English games.
func BenchmarkReplayOCA(b *testing.B) {
	f, err := os.Open("../ingest/pdn/testdata/shared/english/OCA_2.0.pdn.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	rd := pdn.NewReader(zr, "OCA_2.0.pdn")
	var games []*pdn.Game
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		games = append(games, g)
	}
	r := NewReplayer(Options{})
	var g Game
	plies := 0
	b.ReportAllocs()
	for b.Loop() {
		plies = 0
		for _, pg := range games {
			if err := r.Replay(pg, nil, &g); err != nil {
				b.Fatal(err)
			}
			plies += g.Plies()
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(games)*b.N)/secs, "games/s")
	b.ReportMetric(float64(plies*b.N)/secs, "plies/s")
}
