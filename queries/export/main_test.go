package export

import (
	"os"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

func TestMain(m *testing.M) {
	if os.Getenv("DRAUGHTSDB_EXPORT_CHILD") != "" {
		os.Exit(exportChild())
	}
	pgtest.Main(m)
}
