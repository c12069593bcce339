package export

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// Output is where an export goes: a file, compressed with gzip when its
// name ends in .gz, or standard output for "-".
//
// A file is written under a temporary name next to it and renamed over
// path by Close, so a failed or interrupted export (Abort) leaves what was
// at path before untouched and no partial file. Anything at path that is
// not a regular file (a device such as /dev/null, a pipe, a symbolic link)
// is written in place and never removed: Abort once removed whatever path
// named, /dev/null included.
type Output struct {
	io.Writer
	file *os.File
	gz   *gzip.Writer
	path string
	tmp  string // the temporary name renamed to path by Close; "" when written in place
}

// Create opens path for an export ("-": stdout).
func Create(path string, stdout io.Writer) (*Output, error) {
	o := &Output{Writer: stdout, path: path}
	if path != "-" && path != "" {
		f, tmp, err := openOutput(path)
		if err != nil {
			return nil, err
		}
		o.file, o.tmp, o.Writer = f, tmp, f
	}
	if strings.HasSuffix(path, ".gz") {
		o.gz = gzip.NewWriter(o.Writer)
		o.Writer = o.gz
	}
	return o, nil
}

// openOutput opens the file an export writes for path: a new temporary
// file in path's directory (with the mode path has, or a new file's), or
// path itself when it is not a regular file or the directory takes no new
// file.
func openOutput(path string) (*os.File, string, error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		return f, "", err
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	}
	dir, base := filepath.Split(path)
	for range 100 {
		tmp := filepath.Join(dir, "."+base+".partial-"+strconv.FormatUint(rand.Uint64()%1e9, 10))
		f, terr := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(terr, fs.ErrExist) {
			continue
		}
		if terr != nil {
			break // a directory that takes no new file: write path in place
		}
		if err == nil {
			f.Chmod(fi.Mode().Perm()) //nolint:errcheck // the old file's mode, as writing it in place kept
		}
		return f, tmp, nil
	}
	f, err := os.Create(path)
	return f, "", err
}

// Close finishes the gzip stream, closes the file and puts it in place.
func (o *Output) Close() error {
	var err error
	if o.gz != nil {
		err = o.gz.Close()
	}
	if o.file != nil {
		err = errors.Join(err, o.file.Close())
		if o.tmp != "" {
			if err == nil {
				err = os.Rename(o.tmp, o.path)
			}
			if err != nil {
				os.Remove(o.tmp) //nolint:errcheck
			}
		}
	}
	return err
}

// Abort closes the output after a failed export and removes its temporary
// file: what was at path before stays as it was.
func (o *Output) Abort() {
	if o.gz != nil {
		o.gz.Close() //nolint:errcheck
	}
	if o.file != nil {
		o.file.Close() //nolint:errcheck
		if o.tmp != "" {
			os.Remove(o.tmp) //nolint:errcheck
		}
	}
}
