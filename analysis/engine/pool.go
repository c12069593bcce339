package engine

import (
	"errors"
	"sync"
)

// Pool lends engines of one kind to connections that come and go (the DXP
// server): Get opens one when none is idle, Put keeps up to MaxIdle idle
// engines for the next Get and closes the others, so that engines (a
// process each for a Hub engine, a table each for the built-in one) do not
// outlive the connections that used them.
type Pool struct {
	open    func() (Engine, error)
	maxIdle int

	mu     sync.Mutex
	idle   []Engine
	name   string
	closed bool
}

// NewPool makes a pool whose engines open makes; first, if not nil, is an
// engine already opened (to learn its name), kept idle. maxIdle < 0 means
// 0.
func NewPool(first Engine, open func() (Engine, error), maxIdle int) *Pool {
	p := &Pool{open: open, maxIdle: max(maxIdle, 0)}
	if first != nil {
		p.idle = append(p.idle, first)
		p.name = NameOf(first)
	}
	return p
}

// NameOf is an engine's name and version, as one string.
func NameOf(e Engine) string {
	n, v := e.Name(), e.Version()
	if v == "" {
		return n
	}
	if n == "" {
		return v
	}
	return n + " " + v
}

// ErrPoolClosed: Get after Close.
var ErrPoolClosed = errors.New("engine: pool closed")

// Get returns an idle engine or opens one.
func (p *Pool) Get() (Engine, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrPoolClosed
	}
	if n := len(p.idle); n > 0 {
		e := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return e, nil
	}
	p.mu.Unlock()
	e, err := p.open()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.name == "" {
		p.name = NameOf(e)
	}
	p.mu.Unlock()
	return e, nil
}

// Put gives e back: kept idle, or closed when MaxIdle engines already are
// (or the pool is closed); kept reports which.
func (p *Pool) Put(e Engine) (kept bool) {
	p.mu.Lock()
	if !p.closed && len(p.idle) < p.maxIdle {
		p.idle = append(p.idle, e)
		p.mu.Unlock()
		return true
	}
	p.mu.Unlock()
	e.Close()
	return false
}

// Idle is the number of idle engines.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// Name is the name and version of the pool's first engine ("" before any).
func (p *Pool) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

// Close closes the idle engines; engines lent out are closed when they
// come back.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var errs []error
	for _, e := range idle {
		errs = append(errs, e.Close())
	}
	return errors.Join(errs...)
}
