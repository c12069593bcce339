package export

// --what openings is not built yet: the opening statistics (package
// analysis/openings) are being written. To add it, write an openingsSource
// with columns, count and rows like evaluationsSource (evaluations.go),
// return it from sourceFor (export.go) for Openings, drop the
// ErrOpeningsNotAvailable check in Options.check (options.go), and add its
// columns to columnSets (export.go) so the README table and the tests see
// them.
