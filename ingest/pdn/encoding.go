package pdn

import (
	"unicode/utf8"
)

// cp1252High maps bytes 0x80..0x9F of Windows-1252 to Unicode. The bytes
// 0xA0..0xFF are identical to Latin-1 (U+00A0..U+00FF). The five bytes that
// Windows-1252 leaves undefined map to the C1 controls of the same value,
// as Windows itself does, so decoding never fails.
var cp1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// decodeCP1252 converts Windows-1252 bytes to a UTF-8 string.
func decodeCP1252(b []byte) string {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		} else {
			n += 3
		}
	}
	out := make([]byte, 0, n)
	for _, c := range b {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			out = utf8.AppendRune(out, cp1252High[c-0x80])
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return string(out)
}
