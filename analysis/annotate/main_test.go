package annotate

import (
	"os"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// engineEnv makes the test binary a Hub engine (the built-in search
// served on stdin/stdout) for the hub:PATH tests, instead of the tests.
const engineEnv = "ANNOTATE_TEST_HUB_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) != "" {
		if err := hub.Serve(os.Stdin, os.Stdout, hub.Options{TTSizeMB: 4}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	pgtest.Main(m)
}
