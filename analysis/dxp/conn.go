package dxp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// Errors of the connection.
var (
	// ErrDisconnected: the peer closed or reset the connection (or it was
	// closed here); nothing more can be sent or received on it.
	ErrDisconnected = errors.New("dxp: connection closed")
	// ErrTimeout: a message did not come (or could not be sent) within
	// the deadline.
	ErrTimeout = errors.New("dxp: timed out")
)

// Conn sends and receives DXP messages over a net.Conn. Receive must be
// called from one goroutine at a time; Send may be called from any.
type Conn struct {
	nc net.Conn
	// ReadTimeout bounds a Receive whose context has no deadline (0: no
	// bound); WriteTimeout a Send's (0: 30 seconds).
	ReadTimeout, WriteTimeout time.Duration
	// Trace, if not nil, sees every message sent (sent true) or received,
	// without its NUL, before it is parsed.
	Trace func(sent bool, raw []byte)

	wmu  sync.Mutex
	buf  []byte // bytes received that do not yet end with a NUL
	rbuf [512]byte
	// An over-long message is dropped up to its NUL: skip counts its
	// bytes, head keeps its start for the error.
	skip int
	head []byte
}

// NewConn wraps nc.
func NewConn(nc net.Conn) *Conn { return &Conn{nc: nc} }

// RemoteAddr is the peer's address.
func (c *Conn) RemoteAddr() net.Addr { return c.nc.RemoteAddr() }

// Close closes the connection.
func (c *Conn) Close() error { return c.nc.Close() }

// deadlineFor is ctx's deadline, or now + d when ctx has none and d > 0.
func deadlineFor(ctx context.Context, d time.Duration) time.Time {
	if t, ok := ctx.Deadline(); ok {
		return t
	}
	if d > 0 {
		return time.Now().Add(d)
	}
	return time.Time{}
}

// watch makes ctx's cancellation reach the socket through set (a past
// deadline); the returned func undoes the watch and waits for a set under
// way, so that a later deadline is never overwritten.
func watch(ctx context.Context, set func(time.Time) error) func() {
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		set(time.Unix(1, 0))
		close(fired)
	})
	return func() {
		if !stop() {
			<-fired
		}
	}
}

// ioError classifies a socket error: ctx's own error when ctx ended,
// ErrTimeout for a deadline, ErrDisconnected for anything else.
func ioError(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("dxp: %s: %w", op, ctx.Err())
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w (%s)", ErrTimeout, op)
	}
	return fmt.Errorf("%w (%s: %v)", ErrDisconnected, op, err)
}

// Send writes m and its NUL terminator. A message that does not marshal is
// a *MessageError and nothing is sent.
func (c *Conn) Send(ctx context.Context, m Message) error {
	b, err := Marshal(m)
	if err != nil {
		return err
	}
	if c.Trace != nil {
		c.Trace(true, b)
	}
	b = append(b, 0)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dxp: send %s: %w", m.Kind(), err)
	}
	wt := c.WriteTimeout
	if wt <= 0 {
		wt = 30 * time.Second
	}
	c.nc.SetWriteDeadline(deadlineFor(ctx, wt))
	defer watch(ctx, c.nc.SetWriteDeadline)()
	if _, err := c.nc.Write(b); err != nil {
		return ioError(ctx, "send "+m.Kind().String(), err)
	}
	return nil
}

// Receive reads the next message. A malformed one gives a *MessageError
// (errors.Is ErrMalformed) and the connection stays usable: the next call
// reads the message after it. Bytes of a message cut short by a deadline
// or cancellation are kept for the next call.
func (c *Conn) Receive(ctx context.Context) (Message, error) {
	for {
		if i := bytes.IndexByte(c.buf, 0); i >= 0 {
			raw := c.buf[:i]
			c.buf = c.buf[i+1:]
			if c.skip > 0 {
				n, head := c.skip+len(raw), c.head
				c.skip, c.head = 0, nil
				k := Kind(0)
				if len(head) > 0 {
					k = Kind(head[0])
				}
				return nil, &MessageError{Kind: k, Field: "length", Text: string(head),
					Why: fmt.Sprintf("%d bytes, at most %d (dropped)", n, MaxMessageBytes)}
			}
			if c.Trace != nil {
				c.Trace(false, raw)
			}
			m, err := Parse(raw)
			if len(c.buf) == 0 {
				c.buf = c.rbuf[:0:0] // let go of the old array
			}
			return m, err
		}
		if len(c.buf) > MaxMessageBytes {
			if c.skip == 0 {
				c.head = append([]byte(nil), c.buf[:40]...)
			}
			c.skip += len(c.buf)
			c.buf = c.buf[:0]
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("dxp: receive: %w", err)
		}
		c.nc.SetReadDeadline(deadlineFor(ctx, c.ReadTimeout))
		stop := watch(ctx, c.nc.SetReadDeadline)
		n, err := c.nc.Read(c.rbuf[:])
		stop()
		c.buf = append(c.buf, c.rbuf[:n]...)
		if err != nil && n == 0 {
			return nil, ioError(ctx, "receive", err)
		}
	}
}
