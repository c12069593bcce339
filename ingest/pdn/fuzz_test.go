package pdn

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf16"
)

// fuzzSeeds are small snippets of the shared files and of every form the
// reader takes; testdata/fuzz/ holds any crashers found since.
var fuzzSeeds = []string{
	"1.a3b4\n",
	"[FEN \"?:W29,13,11:B22,4,2\"]\r\n*\r\n\r\n[FEN \"W:W31,29,K15:B14,13,12,9\"]\r\n*\r\n",
	"1.32-28 1/2-1/2\n",
	"% Board game: International Draughts 10x10\r\n[Date \"2012.02.01\"]\r\n1. 32-28 19-23\r\n",
	"1.32-28!? 19-23(!?!!!) 2.28x19 *\n",
	"[White \"This is a string with an escaped character \\\"\"] 32-28\n",
	"[White \"\xd0\xa1\xd0\xb5\"]\n[Black \"\xe9\xab\x98\"]\n1.32-28 19-23",
	"32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23\n",
	"1. 33-29 19-23 2. 35-30 { nested { comment } } \r\n",
	"[Event \"a\"]\n[Result \"4-6\"]\n\n01. 34-29  18-22 02. 32-28 4-6\n\n[Event \"b\"]\n1. - - 2. - - 1-1\n",
	"[Result \"1-0\"]\n[FEN \"W:W7,26:B8,14.\"]\n\n1. 46-41 37x46 2. 26-21 $1 {x} 46x1 3. 21x3 . 1-0\n",
	"1. c3-d4 f6-g5 2. f2xd4xf6xh8 cd4 1. ... 7-12 /FEN \"W:W1:B2\"/ 3-8 2-0",
	"\xef\xbb\xbf[Event \"caf\xe9\"]\r1. 32-28 {unterminated\r[Event \"x\"]\r1. 33-29 *",
	"[Event \"x\"]\\n[Site \"y\"]\n\n\n[GameType \"20\"]\n1. 32-28 2-0\n",
	"1. 32-28 (19-23 1-0\n\n[Event \"next\"]\n1. 33-29 )) ] \" ; 0-0",
	"[Ev\x00ent \"a\x00\"]\n{\x00} 1. 3\x002-28 \x00 1-\x000\n\x00\x00",
	"\xff\xfe[\x00E\x00v\x00]\x00 \x00{\x00\x00\xd8}\x00",
	"\xfe\xff\x00[\x00\"\x00]\x001\x00.\x00 \x003\x002\x00-\x002\x008\x00 \x00*",
	"1. 32-28 \xe8x19-23 ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((( 2-0",
}

// decodedInput is what the reader reads data as: UTF-8 after a UTF-16
// byte order mark (an odd last byte read as U+FFFD), else data itself.
func decodedInput(data []byte) []byte {
	if len(data) < 2 || !(data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
		return data
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		if data[0] == 0xFE {
			units[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
		} else {
			units[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
		}
	}
	s := string(utf16.Decode(units))
	if len(data)%2 == 1 {
		s += "\uFFFD"
	}
	return []byte(s)
}

// fuzzing reports whether this is a -fuzz run rather than a plain test run.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		// A hang is a bug too: while fuzzing, crash the worker so the
		// input is kept. Plain test runs (the seeds and testdata/fuzz)
		// have no time limit: a loaded machine must not fail them.
		if fuzzing() {
			watchdog := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("reader hangs on %q", data)) })
			defer watchdog.Stop()
		}
		var src io.Reader = bytes.NewReader(data)
		if mode&1 != 0 {
			src = iotest.OneByteReader(src)
		}
		rd := newReaderSize(src, "fuzz", 16+int(mode>>1))
		text := decodedInput(data)
		prevEnd := int64(0)
		for n := 0; ; n++ {
			if n > len(data)+1 {
				t.Fatalf("more games (%d) than bytes", n)
			}
			g, err := rd.Next()
			if err == io.EOF {
				return
			}
			if g == nil {
				t.Fatalf("nil game with %v", err)
			}
			if g.Ordinal != n+1 {
				t.Fatalf("ordinal %d, want %d", g.Ordinal, n+1)
			}
			// Raw is the exact slice of the input, in order.
			if g.Offset < prevEnd || g.Offset+int64(len(g.Raw)) > int64(len(text)) ||
				!bytes.Equal(g.Raw, text[g.Offset:g.Offset+int64(len(g.Raw))]) {
				t.Fatalf("game %d: Raw %q is not the input at %d", g.Ordinal, g.Raw, g.Offset)
			}
			// Every string handed out, and every message, is valid UTF-8
			// without NUL, and messages quote little of the input.
			if err := checkClean(g); err != nil {
				t.Fatal(err)
			}
			if err != nil {
				if e := checkMessage(err); e != nil {
					t.Fatal(e)
				}
			}
			prevEnd = g.Offset + int64(len(g.Raw))
		}
	})
}

// FuzzRoundTrip: whatever reads without error writes and reads back equal.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewReader(bytes.NewReader(data), "fuzz")
		var games []*Game
		for {
			g, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return
			}
			games = append(games, g)
		}
		roundTrip(t, "fuzz", games)
	})
}
