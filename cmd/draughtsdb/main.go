// Command draughtsdb indexes draughts (checkers) game collections into
// PostgreSQL: it reads PDN archives, replays every game through its own rules
// engine, stores games, moves and positions, and answers opening, position
// and player queries. Run `draughtsdb --help` for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	// draughtsdb's heap is small and short-lived (games in flight); trading
	// some memory for fewer collections speeds reading and replay by ~25%.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// ...but never let that push the process past a modest footprint: the
	// soft limit makes the collector work harder near it (GOMEMLIMIT
	// overrides it).
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(160 << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCommand().ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err))
}

// exitError carries a specific exit status (e.g. some inputs failed) with
// a message that has already been printed, or none.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "draughtsdb: "+ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "draughtsdb: "+err.Error())
	return 1
}
