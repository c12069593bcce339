package endgame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// FuzzReadTables: ReadTables of any bytes, as a file on disk may hold
// after a crash, a full disk or an edit, returns tables or ErrCorrupt,
// never panics; tables it accepts probe only decided values within the
// bounds a search can score. Each input is read twice: as the whole file,
// and as the values of a file whose header and checksum are right (which
// random bytes rarely get past otherwise).
func FuzzReadTables(f *testing.F) {
	v := rules.English
	t, err := Generate(v, 2, nil)
	if err != nil {
		f.Fatal(err)
	}
	var good bytes.Buffer
	if _, err := t.WriteTo(&good); err != nil {
		f.Fatal(err)
	}
	head := fmt.Sprintf("%s%s %d\n", magic, v.Name, 2)
	f.Add(good.Bytes())
	f.Add(good.Bytes()[len(head) : good.Len()-4])
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte(head))
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(what string, file []byte) {
			tabs, err := ReadTables(bytes.NewReader(file), v, 2)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: %v, not ErrCorrupt", what, err)
				}
				return
			}
			for _, tb := range tabs.order {
				for _, x := range tb.val {
					if x != 0 && (x%2 == 0 || x > maxDistance || x < -maxDistance-1) {
						t.Fatalf("%s: accepted value %d", what, x)
					}
				}
			}
			pos, err := rules.ParseFEN(v, "W:WK1:BK32")
			if err != nil {
				t.Fatal(err)
			}
			if val, ok := tabs.Probe(&pos); !ok || val.Plies() > maxDistance {
				t.Fatalf("%s: probe %v %v", what, val, ok)
			}
		}
		check("the file", data)
		file := append([]byte(head), data...)
		file = binary.LittleEndian.AppendUint32(file, crc32.ChecksumIEEE(file))
		check("values with a right checksum", file)
	})
}
