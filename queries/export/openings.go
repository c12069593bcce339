package export

// --what openings is not built yet: the opening statistics (package
// analysis/openings) are being written. To add it:
//
//  1. write an openingsSource{o *Options} with columns, count and rows,
//     like evaluationsSource (evaluations.go), reading in s.main (the
//     session's REPEATABLE READ snapshot) and emitting one []Value per row;
//  2. return it from sourceFor (export.go) for Openings, and add its
//     columns to ColumnSets (export.go), so that the README table (checked
//     by readme_test.go) and TestExports cover it;
//  3. drop the ErrOpeningsNotAvailable checks in Options.check
//     (options.go) and in cmd/draughtsdb/export.go, and decide in check
//     which filters apply (Filter.onlyVariant is there for that).
