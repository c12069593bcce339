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
// and as patches of the values of a real file (4 bytes each: a place and
// a value) whose checksum is then made right again, which random bytes
// would rarely get past otherwise.
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
	head := len(fmt.Sprintf("%s%s %d\n", magic, v.Name, 2))
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:head+10])
	f.Add([]byte{0, 0, 2, 0})             // a value made even
	f.Add([]byte{7, 0, 0xf5, 0x01})       // 501 plies
	f.Add([]byte{9, 1, 0x03, 0, 9, 1, 0}) // a win of 3, and a short patch
	pos, err := rules.ParseFEN(v, "W:WK1:BK32")
	if err != nil {
		f.Fatal(err)
	}
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
			if val, ok := tabs.Probe(&pos); !ok || val.Plies() > maxDistance {
				t.Fatalf("%s: probe %v %v", what, val, ok)
			}
		}
		check("the file", data)
		file := bytes.Clone(good.Bytes()[:good.Len()-4])
		values := (len(file) - head) / 2
		for p := data; len(p) >= 4; p = p[4:] {
			i := int(binary.LittleEndian.Uint16(p)) % values
			copy(file[head+2*i:], p[2:4])
		}
		file = binary.LittleEndian.AppendUint32(file, crc32.ChecksumIEEE(file))
		check("patched values with a right checksum", file)
	})
}
