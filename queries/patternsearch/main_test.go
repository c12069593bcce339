package patternsearch

import (
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
