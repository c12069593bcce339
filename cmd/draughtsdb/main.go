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

	"github.com/draughtsdb/draughtsdb/schema"
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

// exitInterrupted is the exit status of a command stopped by SIGINT
// (Ctrl-C) or SIGTERM: 128 + SIGINT, as a shell reports a process killed by
// it.
const exitInterrupted = 130

// interrupted turns the error of a command that stopped because ctx was
// cancelled (main cancels it on SIGINT and SIGTERM) into exit status 130
// with "WHAT interrupted; KEPT": what the command is and what became of its
// work. Any other error, and nil, is returned as it is.
func interrupted(ctx context.Context, err error, what, kept string) error {
	if err == nil || !errors.Is(err, context.Canceled) && ctx.Err() == nil {
		return err
	}
	msg := what + " interrupted"
	if kept != "" {
		msg += "; " + kept
	}
	return &exitError{code: exitInterrupted, msg: msg}
}

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
	if errors.Is(err, context.Canceled) {
		// A command that does not say more about it (see interrupted).
		fmt.Fprintln(os.Stderr, "draughtsdb: interrupted")
		return exitInterrupted
	}
	fmt.Fprintln(os.Stderr, "draughtsdb: "+schema.DescribeError(err).Error())
	return 1
}
