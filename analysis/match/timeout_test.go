package match

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestDXPMoveBoundedByTimeout: a DXP engine that accepts a game of 999
// minutes and then never moves forfeits on time after the move time plus
// EngineOptions.Timeout, like any engine: its own game time does not
// extend the bound.
func TestDXPMoveBoundedByTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		c := dxp.NewConn(nc)
		ctx := context.Background()
		if _, err := c.Receive(ctx); err != nil { // the GAMEREQ
			return
		}
		c.Send(ctx, dxp.GameAcc{Name: "silent", Code: dxp.Accepted}) //nolint:errcheck
		for {                                                        // silent from now on
			if _, err := c.Receive(ctx); err != nil {
				return
			}
		}
	}()
	ctx := context.Background()
	const timeout = 300 * time.Millisecond
	p, err := OpenPlayer(ctx, "dxp:"+ln.Addr().String(), nil, rules.International,
		EngineOptions{Limit: engine.Limit{Depth: 2}, Timeout: timeout, DXPMinutes: 999})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bs, _ := Ballots(rules.International)
	g := newGame(1, &bs[0])
	if err := p.Begin(ctx, g, g.Pos.SideToMove()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Move(ctx, g)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, dxp.ErrTimeout) || forfeitReason(err) != TimeForfeit {
			t.Errorf("Move: %v (%s), want a time forfeit", err, forfeitReason(err))
		}
	case <-time.After(time.Minute):
		t.Fatal("no forfeit a minute after a move timeout of 300 ms: the game time bounds the move")
	}
}
