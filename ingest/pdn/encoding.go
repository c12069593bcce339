package pdn

import (
	"bytes"
	"io"
	"unicode/utf16"
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

// sniff reads the first bytes of the input into the buffer and, when they
// are a UTF-16 byte order mark (FF FE little-endian, FE FF big-endian),
// puts a decoder to UTF-8 in front of the source and forgets them: the
// lexer then sees UTF-8 (the mark itself becomes the UTF-8 BOM, which it
// skips). It reports whether bytes were left in the buffer. A read error
// met here is kept for the next read, after the bytes that came with it.
func (lx *lexer) sniff() bool {
	w0 := lx.w
	var err error
	for tries := 0; lx.w-w0 < 2 && err == nil && tries < 100; tries++ {
		var n int
		n, err = lx.src.Read(lx.buf[lx.w:])
		lx.w += n
	}
	if err != nil {
		lx.src = errReader{err}
	}
	got := lx.buf[w0:lx.w]
	if len(got) >= 2 && (got[0] == 0xFF && got[1] == 0xFE || got[0] == 0xFE && got[1] == 0xFF) {
		head := bytes.NewReader(append([]byte(nil), got...))
		lx.src = &utf16Reader{r: io.MultiReader(head, lx.src), be: got[0] == 0xFE}
		lx.w = w0
		return false
	}
	return lx.w > w0
}

// UTF8Text returns r as the text a Reader reads from it: a UTF-16 stream
// (byte order mark FF FE or FE FF at its start) decoded to UTF-8 as it is
// read, exactly as a Reader decodes it (the mark becomes the UTF-8 byte
// order mark), anything else unchanged. Offsets in the result are those a
// Reader over r reports, so the text can be cut into pieces for readers of
// their own (NewSplitReader) after it is decoded.
func UTF8Text(r io.Reader) io.Reader {
	var head [2]byte
	n, err := io.ReadFull(r, head[:])
	rest := r
	if err != nil {
		rest = errReader{err}
		if err == io.ErrUnexpectedEOF {
			rest = errReader{io.EOF}
		}
	}
	got := bytes.NewReader(append([]byte(nil), head[:n]...))
	if n == 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF) {
		return &utf16Reader{r: io.MultiReader(got, rest), be: head[0] == 0xFE}
	}
	return io.MultiReader(got, rest)
}

// errReader returns its error on every read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// utf16Reader decodes a UTF-16 stream to UTF-8 as it is read. Unpaired
// surrogates and a final odd byte become U+FFFD, so the output is always
// valid UTF-8.
type utf16Reader struct {
	r   io.Reader
	be  bool
	in  [8 << 10]byte // undecoded input: in[:nin]
	nin int
	out []byte // decoded, not yet returned
	buf []byte // backing array of out
	err error  // from r, returned once out is drained
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		n, err := u.r.Read(u.in[u.nin:])
		u.nin += n
		if err != nil {
			u.err = err
		} else if n == 0 {
			return 0, nil // the caller retries a bounded number of times
		}
		u.decode(err != nil)
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// decode turns the complete code units of u.in into UTF-8 in u.out and
// keeps an incomplete tail for the next read (at the end of the input, the
// tail is decoded as U+FFFD).
func (u *utf16Reader) decode(final bool) {
	in, out := u.in[:u.nin], u.buf[:0]
	unit := func(i int) rune {
		if u.be {
			return rune(in[i])<<8 | rune(in[i+1])
		}
		return rune(in[i+1])<<8 | rune(in[i])
	}
	i := 0
	for ; i+1 < len(in); i += 2 {
		r := unit(i)
		if utf16.IsSurrogate(r) {
			if r < 0xDC00 { // a high surrogate: its pair follows
				if i+3 >= len(in) {
					if !final {
						break // wait for the low surrogate
					}
				} else if r2 := utf16.DecodeRune(r, unit(i+2)); r2 != utf8.RuneError {
					out = utf8.AppendRune(out, r2)
					i += 2
					continue
				}
			}
			r = utf8.RuneError
		}
		out = utf8.AppendRune(out, r)
	}
	rest := copy(u.in[:], in[i:])
	if final && rest > 0 {
		out = utf8.AppendRune(out, utf8.RuneError) // an odd last byte
		rest = 0
	}
	u.nin = rest
	u.buf, u.out = out, out
}
