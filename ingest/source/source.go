// Package source finds the PDN inputs of an import and opens them as
// streams: plain files, directories (searched recursively), gzip files,
// zip archives (each PDN entry a source of its own) and standard input.
//
//	srcs, errs := source.Expand([]string{"games/", "more.pdn.gz", "-"})
//	for _, e := range errs { log.Print(e) } // a missing path, a broken zip: skip it
//	for _, s := range srcs {
//		r, err := s.Open()
//		if err != nil { log.Print(err); continue } // e.g. not gzip
//		... read r (pdn.NewReader(r, s.Name)); a corrupt stream fails in Read ...
//		r.Close()
//		sum := r.SHA256() // of all bytes read, once r hit io.EOF
//	}
//
// Names: a path as given (or as found under a directory), "archive.zip!dir/entry.pdn"
// for zip entries, "-" for standard input. Size is the number of bytes the
// source occupies on disk (compressed for .gz and zip entries; -1 for
// stdin), and Reader.Consumed counts those same bytes as they are read, so
// the two make a progress bar. Reader.SHA256 hashes the bytes the Reader
// returned (the PDN text after decompression), so the same games give the
// same hash whether zipped or not.
package source

import (
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Error is a failure to open or read one source. It names the source once,
// so that callers print it as is (a truncated gzip reads
// "x.gz: unexpected EOF", not "x.gz: x.gz: unexpected EOF"), and unwraps to
// the cause (io.ErrUnexpectedEOF, gzip.ErrChecksum, fs.ErrNotExist ...).
type Error struct {
	Name string // the source's name (Source.Name, or the path given to Expand)
	Op   string // "open" or "read"
	Err  error  // the cause, which does not repeat the name
}

func (e *Error) Error() string {
	if e.Op == "open" {
		return e.Name + ": cannot open: " + e.Err.Error()
	}
	return e.Name + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// openError wraps err, dropping an *fs.PathError's own copy of the path.
func openError(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Name: name, Op: "open", Err: err}
}

// Stdin is what the name "-" reads; tests replace it.
var Stdin io.Reader = os.Stdin

// Kind says how a source is decoded.
type Kind int

const (
	Plain   Kind = iota // a PDN file as is
	Gzip                // a .gz file
	ZipItem             // one entry of a .zip archive
	StdIn               // standard input
)

// Source is one input stream of PDN text.
type Source struct {
	Name string
	Size int64 // bytes on disk (compressed), -1 if unknown
	Kind Kind

	path  string // file or archive path
	entry string // zip entry name
}

// Expand turns command-line paths into sources, in the given order;
// directories are walked in lexical order and yield the files whose names
// end in .pdn, .pdn.gz or .zip (any case). A path named explicitly is taken
// whatever its extension (.gz and .zip decoded). Problems with one path (it
// does not exist, a zip that cannot be opened) are returned in errs and do
// not stop the others.
func Expand(paths []string) (srcs []*Source, errs []error) {
	for _, p := range paths {
		if p == "-" {
			srcs = append(srcs, &Source{Name: "-", Size: -1, Kind: StdIn})
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			errs = append(errs, openError(p, err))
			continue
		}
		if !fi.IsDir() {
			s, err := fileSources(p, fi.Size())
			srcs = append(srcs, s...)
			if err != nil {
				errs = append(errs, err)
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, openError(path, err))
				return nil
			}
			if d.IsDir() || !wanted(d.Name()) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				errs = append(errs, openError(path, err))
				return nil
			}
			s, err := fileSources(path, info.Size())
			srcs = append(srcs, s...)
			if err != nil {
				errs = append(errs, err)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, openError(p, err))
		}
	}
	return srcs, errs
}

func wanted(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".pdn") || strings.HasSuffix(n, ".pdn.gz") || strings.HasSuffix(n, ".zip")
}

func fileSources(path string, size int64) ([]*Source, error) {
	n := strings.ToLower(path)
	switch {
	case strings.HasSuffix(n, ".zip"):
		return zipSources(path)
	case strings.HasSuffix(n, ".gz"):
		return []*Source{{Name: path, Size: size, Kind: Gzip, path: path}}, nil
	}
	return []*Source{{Name: path, Size: size, Kind: Plain, path: path}}, nil
}

func zipSources(path string) ([]*Source, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer zr.Close()
	var out []*Source
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || !strings.HasSuffix(strings.ToLower(f.Name), ".pdn") {
			continue
		}
		out = append(out, &Source{Name: path + "!" + f.Name, Size: int64(f.CompressedSize64), Kind: ZipItem, path: path, entry: f.Name})
	}
	return out, nil
}

// Open starts reading the source. The caller must Close the Reader.
func (s *Source) Open() (*Reader, error) {
	r := &Reader{h: sha256.New()}
	switch s.Kind {
	case StdIn:
		r.name = s.Name
		r.counted = countingReader{r: Stdin, n: &r.consumed}
		r.r = &r.counted
		return r, nil
	case ZipItem:
		zr, err := zip.OpenReader(s.path)
		if err != nil {
			return nil, openError(s.Name, err)
		}
		for _, f := range zr.File {
			if f.Name != s.entry {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				zr.Close()
				return nil, openError(s.Name, err)
			}
			// The entry's compressed size stands in for progress: the zip
			// reader does not expose how much of it was consumed.
			r.counted = countingReader{r: rc, n: &r.consumed}
			r.r = &r.counted
			r.closers = []io.Closer{rc, zr}
			r.name = s.Name
			return r, nil
		}
		zr.Close()
		return nil, openError(s.Name, errors.New("entry disappeared from the archive"))
	}
	f, err := os.Open(s.path)
	if err != nil {
		return nil, openError(s.Name, err)
	}
	r.name = s.Name
	r.counted = countingReader{r: f, n: &r.consumed}
	r.closers = []io.Closer{f}
	r.r = &r.counted
	if s.Kind == Gzip {
		zr, err := gzip.NewReader(&r.counted)
		if err != nil {
			f.Close()
			return nil, openError(s.Name, err)
		}
		r.r = zr
		r.closers = []io.Closer{zr, f}
	}
	return r, nil
}

// Reader is an open source. It hashes what it returns.
type Reader struct {
	name     string
	r        io.Reader
	counted  countingReader
	consumed int64
	closers  []io.Closer
	h        hash.Hash
	n        int64
}

func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if r.h != nil {
		r.h.Write(p[:n])
	}
	r.n += int64(n)
	if err != nil && err != io.EOF {
		err = &Error{Name: r.name, Op: "read", Err: err}
	}
	return n, err
}

// Close releases the file or archive.
func (r *Reader) Close() error {
	var first error
	for _, c := range r.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// SHA256 returns the hex SHA-256 of the bytes read so far; after Read
// returned io.EOF it is the hash of the whole source.
func (r *Reader) SHA256() string {
	if r.h == nil {
		return ""
	}
	return hex.EncodeToString(r.h.Sum(nil))
}

// SkipHash stops hashing (SHA256 then returns ""), for readers that do not
// need the hash: it saves a few percent of a fast reader's time.
func (r *Reader) SkipHash() { r.h = nil }

// BytesRead counts the (decompressed) bytes returned so far.
func (r *Reader) BytesRead() int64 { return r.n }

// Consumed counts the bytes taken from the file so far, comparable to
// Source.Size.
func (r *Reader) Consumed() int64 { return r.consumed }

type countingReader struct {
	r io.Reader
	n *int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}
