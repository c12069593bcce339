package export

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// Output is where an export goes: a file, compressed with gzip when its
// name ends in .gz, or standard output for "-".
type Output struct {
	io.Writer
	file *os.File
	gz   *gzip.Writer
	path string
}

// Create opens path for an export ("-": stdout).
func Create(path string, stdout io.Writer) (*Output, error) {
	o := &Output{Writer: stdout, path: path}
	if path != "-" && path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		o.file, o.Writer = f, f
	}
	if strings.HasSuffix(path, ".gz") {
		o.gz = gzip.NewWriter(o.Writer)
		o.Writer = o.gz
	}
	return o, nil
}

// Close finishes the gzip stream and closes the file.
func (o *Output) Close() error {
	var err error
	if o.gz != nil {
		err = o.gz.Close()
	}
	if o.file != nil {
		err = errors.Join(err, o.file.Close())
	}
	return err
}

// Abort closes and removes a file left incomplete by a failed export.
func (o *Output) Abort() {
	if o.gz != nil {
		o.gz.Close() //nolint:errcheck
	}
	if o.file != nil {
		o.file.Close()    //nolint:errcheck
		os.Remove(o.path) //nolint:errcheck
	}
}
