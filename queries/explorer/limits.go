package explorer

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Defaults of the Options that share the server between clients.
const (
	DefaultMaxExpensive          = 2
	DefaultMaxExpensivePerClient = 1
	DefaultMaxCheap              = 16
	DefaultMaxCheapPerClient     = 8
	DefaultQueueWait             = 2 * time.Second
	// maxWaiting bounds the requests of one class waiting for a slot at
	// once; more are refused at once.
	maxWaiting = 64
)

// A request is expensive or cheap (cost): a filtered tree, a filtered
// games list and any page after the first read many games; the rest reads
// a few rows through an index (or a page kept in the cache). Each class
// has its own gate, so cheap requests never queue behind expensive ones,
// and expensive ones hold at most MaxExpensive of the pool's connections.
type cost int

const (
	cheap cost = iota
	expensive
)

// gate bounds the requests of one class running at once, overall and per
// client (the client's IP address). A request over a bound waits up to
// wait for a slot, then is refused: 429 when its client has too many
// under way, 503 when the server has; both with Retry-After.
type gate struct {
	name      string
	slots     chan struct{}
	perClient int
	wait      time.Duration

	mu      sync.Mutex
	clients map[string]*clientSlots
	waiting int
}

// clientSlots are one client's slots; refs counts the requests holding or
// waiting for one, and the entry goes when it is 0.
type clientSlots struct {
	ch   chan struct{}
	refs int
}

func newGate(name string, total, perClient int, wait time.Duration) *gate {
	return &gate{name: name, slots: make(chan struct{}, total), perClient: min(perClient, total), wait: wait,
		clients: map[string]*clientSlots{}}
}

// retryAfter is the Retry-After of a refusal, in seconds.
func (g *gate) retryAfter() int { return max(1, int((g.wait+time.Second-1)/time.Second)) }

// enter takes a slot for client; release gives it back. The error is a
// *RequestError (429 or 503) or ctx's.
func (g *gate) enter(ctx context.Context, client string) (release func(), err error) {
	g.mu.Lock()
	if g.waiting >= maxWaiting {
		g.mu.Unlock()
		return nil, g.refuse(http.StatusServiceUnavailable)
	}
	g.waiting++
	c := g.clients[client]
	if c == nil {
		c = &clientSlots{ch: make(chan struct{}, g.perClient)}
		g.clients[client] = c
	}
	c.refs++
	g.mu.Unlock()
	done := func() {
		g.mu.Lock()
		if c.refs--; c.refs == 0 {
			delete(g.clients, client)
		}
		g.mu.Unlock()
	}
	stopWaiting := func() {
		g.mu.Lock()
		g.waiting--
		g.mu.Unlock()
	}
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case c.ch <- struct{}{}:
	case <-timer.C:
		stopWaiting()
		done()
		return nil, g.refuse(http.StatusTooManyRequests)
	case <-ctx.Done():
		stopWaiting()
		done()
		return nil, ctx.Err()
	}
	select {
	case g.slots <- struct{}{}:
	case <-timer.C:
		<-c.ch
		stopWaiting()
		done()
		return nil, g.refuse(http.StatusServiceUnavailable)
	case <-ctx.Done():
		<-c.ch
		stopWaiting()
		done()
		return nil, ctx.Err()
	}
	stopWaiting()
	return func() {
		<-g.slots
		<-c.ch
		done()
	}, nil
}

func (g *gate) refuse(status int) error {
	var msg string
	if status == http.StatusTooManyRequests {
		msg = fmt.Sprintf("too many %s requests from your address at once (at most %d); retry after %d s", g.name, g.perClient, g.retryAfter())
	} else {
		msg = fmt.Sprintf("the server is busy with %s requests (at most %d at once); retry after %d s", g.name, cap(g.slots), g.retryAfter())
	}
	return &RequestError{Status: status, Msg: msg, Err: ErrBusy, RetryAfter: g.retryAfter()}
}

// clientOf is the client a request counts against: its IP address.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// requestCost says which gate a request of the API goes through.
func requestCost(endpoint string, rq *request) cost {
	switch endpoint {
	case "openings":
		for _, k := range filterParams {
			if rq.get(k) != "" {
				return expensive
			}
		}
	case "pattern":
		// A pattern search reads every indexed game of its variant.
		return expensive
	case "player":
		// A player page decodes the player's games for its two trees.
		return expensive
	case "players":
		// A search groups every spelling and counts every pairing.
		if _, ok := rq.q["search"]; ok {
			return expensive
		}
	case "games":
		for _, k := range append(filterParams, "cursor") {
			if rq.get(k) != "" {
				return expensive
			}
		}
	}
	return cheap
}

// setRetryAfter writes the Retry-After header of a refusal.
func setRetryAfter(w http.ResponseWriter, seconds int) {
	if seconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(seconds))
	}
}
