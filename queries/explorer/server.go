package explorer

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Defaults of Options.
const (
	DefaultRequestTimeout   = 15 * time.Second
	DefaultStatementTimeout = 10 * time.Second
	DefaultMaxFilterGames   = 20000
	DefaultCacheTTL         = 30 * time.Second
)

// Options configure a Server. The zero value of each field is its default.
type Options struct {
	// DefaultVariant is the variant of a request that names none; "" is
	// Russian, as for `draughtsdb openings`.
	DefaultVariant string
	// RequestTimeout bounds a whole request (its context); past it the
	// answer is 503.
	RequestTimeout time.Duration
	// StatementTimeout is the statement_timeout of the read-only
	// transaction every request runs in.
	StatementTimeout time.Duration
	// MaxFilterGames caps the games a filtered tree decodes: the newest
	// that pass the filter; the answer says when there were more.
	MaxFilterGames int
	// MaxScanGames bounds the games a filtered tree or games list at a
	// popular position looks at (the newest first); the answer says when
	// it stopped there.
	MaxScanGames int
	// CacheTTL is how long a page of the games at a position (the named
	// query games_at_position) and a filtered tree are kept for the next
	// request; < 0: never. Imported games show in those after at most
	// this long.
	CacheTTL time.Duration
	// MaxExpensive bounds the expensive requests (filtered trees and
	// games lists, pages after the first) running at once, and so the
	// database connections they hold: at most the pool's size less one,
	// which is left to the cheap ones. MaxExpensivePerClient bounds them
	// per client (IP address). MaxCheap and MaxCheapPerClient bound the
	// other requests, in a gate of their own.
	MaxExpensive          int
	MaxExpensivePerClient int
	MaxCheap              int
	MaxCheapPerClient     int
	// QueueWait is how long a request over one of those bounds waits for
	// a slot before it is refused (429 for its client's bound, 503 for
	// the server's, with Retry-After).
	QueueWait time.Duration
	// AllowedHosts, when not empty, are the only Host headers answered
	// (host:port, lower case; LoopbackHosts): a server on loopback
	// refuses the names a DNS rebinding would send.
	AllowedHosts []string
	// Log receives one line per request (method, path, status, duration)
	// and the cause of every 500 and 503; nil: none.
	Log io.Writer
}

// Server answers the explorer's API and serves its page.
type Server struct {
	pool    *pgxpool.Pool
	opt     Options
	variant *rules.Variant
	log     *log.Logger
	cache   *pageCache[[]GameRow]
	// trees keeps filtered trees for CacheTTL; flights are the filtered
	// trees being counted, which the same request waits for (outside
	// the gates) instead of counting again.
	trees   *pageCache[*TreeAnswer]
	flights flights
	// cursorKey signs the games-list cursors: random per process, so a
	// cursor is valid for this run of the server only.
	cursorKey        []byte
	expensive, cheap *gate
	// scanMin is the games the opening statistics must count through a
	// position before a filtered selection scans the newest games
	// instead of listing the position's (scanMinGames; the tests lower
	// it).
	scanMin int
	window  int64
	// scans counts the scans of the newest games (for the tests).
	scans atomic.Int64
}

// New returns a Server reading pool. It checks DefaultVariant.
func New(pool *pgxpool.Pool, opt Options) (*Server, error) {
	if opt.DefaultVariant == "" {
		opt.DefaultVariant = rules.Default.Name
	}
	v, err := rules.VariantByName(opt.DefaultVariant)
	if err != nil {
		return nil, fmt.Errorf("explorer: default variant: %w", err)
	}
	if opt.RequestTimeout <= 0 {
		opt.RequestTimeout = DefaultRequestTimeout
	}
	if opt.StatementTimeout <= 0 {
		opt.StatementTimeout = DefaultStatementTimeout
	}
	if opt.MaxFilterGames <= 0 {
		opt.MaxFilterGames = DefaultMaxFilterGames
	}
	if opt.CacheTTL == 0 {
		opt.CacheTTL = DefaultCacheTTL
	}
	if opt.MaxScanGames <= 0 {
		opt.MaxScanGames = DefaultMaxScanGames
	}
	if opt.MaxExpensive <= 0 {
		opt.MaxExpensive = DefaultMaxExpensive
	}
	if pool != nil && opt.MaxExpensive >= int(pool.Config().MaxConns) {
		conns := int(pool.Config().MaxConns)
		opt.MaxExpensive = max(1, conns-1)
	}
	if opt.MaxExpensivePerClient <= 0 {
		opt.MaxExpensivePerClient = DefaultMaxExpensivePerClient
	}
	if opt.MaxCheap <= 0 {
		opt.MaxCheap = DefaultMaxCheap
	}
	if opt.MaxCheapPerClient <= 0 {
		opt.MaxCheapPerClient = DefaultMaxCheapPerClient
	}
	if opt.QueueWait <= 0 {
		opt.QueueWait = DefaultQueueWait
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("explorer: cursor key: %w", err)
	}
	s := &Server{pool: pool, opt: opt, variant: v, cache: &pageCache[[]GameRow]{ttl: opt.CacheTTL, maxEntries: 4096, now: time.Now},
		trees:     &pageCache[*TreeAnswer]{ttl: opt.CacheTTL, maxEntries: maxCachedTrees, now: time.Now},
		cursorKey: key, scanMin: scanMinGames, window: scanWindow,
		expensive: newGate("expensive", opt.MaxExpensive, opt.MaxExpensivePerClient, opt.QueueWait),
		cheap:     newGate("cheap", opt.MaxCheap, opt.MaxCheapPerClient, opt.QueueWait)}
	if opt.Log != nil {
		s.log = log.New(opt.Log, "", log.LstdFlags)
	}
	return s, nil
}

// Handler returns the routes: the API under /api/ and the page at /.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /api/variants", s.api("variants", nil, s.variants))
	mux.Handle("GET /api/position", s.api("position", positionParams, s.position))
	mux.Handle("GET /api/openings", s.api("openings", append(append(positionParams, filterParams...), sourceParams...), s.openings))
	mux.Handle("GET /api/games", s.api("games", append(append(append(positionParams, filterParams...), sourceParams...), "cursor", "limit"), s.games))
	mux.Handle("GET /api/download", s.download())
	mux.Handle("GET /api/game/{id}", s.api("game", nil, s.game))
	mux.Handle("GET /api/player", s.api("player", playerParams, s.player))
	mux.Handle("GET /api/players", s.api("players", []string{"search", "prefix", "limit"}, s.players))
	mux.Handle("GET /api/pattern", s.api("pattern", patternParams, s.patternSearch))
	mux.Handle("/api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// This pattern takes every method, so the mux never answers 405
		// itself: an endpoint asked with another method than GET lands
		// here, and is one when a GET of the same path would not.
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		if _, pattern := mux.Handler(get); pattern != "/api/" {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s: use GET (or HEAD)",
				pdn.Clip(r.Method, 20), pdn.Clip(r.URL.Path, 100)))
			return
		}
		writeError(w, http.StatusNotFound, "no such API endpoint: "+pdn.Clip(r.URL.Path, 100)+
			" (see /api/variants, /api/position, /api/openings, /api/games, /api/game/{id}, /api/player, /api/players)")
	}))
	mux.Handle("/", webHandler())
	return s.logged(recovered(framed(s.checkHost(mux))))
}

// framed forbids framing every answer (clickjacking): the page sets its
// own policy with frame-ancestors 'none', the API a policy of nothing.
func framed(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", apiPolicy)
		w.Header().Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}

// apiPolicy is the Content-Security-Policy of every answer but the page's.
const apiPolicy = "default-src 'none'; frame-ancestors 'none'"

// checkHost refuses a request whose Host is not one of
// Options.AllowedHosts (when set): a page of another site whose name
// was rebound to 127.0.0.1 sends its own name.
func (s *Server) checkHost(h http.Handler) http.Handler {
	if len(s.opt.AllowedHosts) == 0 {
		return h
	}
	allowed := map[string]bool{}
	for _, a := range s.opt.AllowedHosts {
		allowed[strings.ToLower(a)] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed[strings.ToLower(r.Host)] {
			writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf("Host %s is not this server's: it listens on loopback and answers only %s",
				quote(r.Host), strings.Join(s.opt.AllowedHosts, ", ")))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// LoopbackHosts are the Host headers a server listening on addr answers
// when addr is a loopback address: localhost, 127.0.0.1 and [::1], with
// addr's port (and without it for port 80); nil for another address
// (which has no names to check against).
func LoopbackHosts(addr net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		return nil
	}
	port := strconv.Itoa(tcp.Port)
	var out []string
	for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
		out = append(out, h+":"+port)
		if tcp.Port == 80 {
			out = append(out, h)
		}
	}
	return out
}

// Errors a handler returns for what the request asks (see RequestError).
var (
	ErrBadRequest = errors.New("bad request")
	ErrNotFound   = errors.New("not found")
	// ErrBusy: a bound on the requests at once (429 or 503).
	ErrBusy = errors.New("busy")
)

// RequestError is an answer other than 200 caused by the request: its
// status and the message for the client.
type RequestError struct {
	Status int
	Msg    string
	Err    error // ErrBadRequest, ErrNotFound or ErrBusy, and the cause if any
	// RetryAfter, when > 0, is the Retry-After of the answer, in seconds.
	RetryAfter int
}

func (e *RequestError) Error() string { return e.Msg }
func (e *RequestError) Unwrap() error { return e.Err }

// maxMessage caps an error message (quoted user text inside is capped
// already; a list of legal moves is the longest).
const maxMessage = 2000

func badRequest(format string, args ...any) error {
	return &RequestError{Status: http.StatusBadRequest, Msg: pdn.Clip(fmt.Sprintf(format, args...), maxMessage), Err: ErrBadRequest}
}

func notFound(format string, args ...any) error {
	return &RequestError{Status: http.StatusNotFound, Msg: pdn.Clip(fmt.Sprintf(format, args...), maxMessage), Err: ErrNotFound}
}

// api wraps the handler of endpoint: it checks the query string (well
// formed, only the parameters listed, each once, valid UTF-8 without
// control characters), waits for a slot of the request's gate (cheap or
// expensive: requestCost; a filtered tree kept or being counted is waited
// for outside them), sets the request deadline and writes the JSON answer
// or the error.
func (s *Server) api(endpoint string, allowed []string, h func(ctx context.Context, rq *request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.RequestTimeout)
		defer cancel()
		rq, err := parseRequest(r, allowed)
		var out any
		if err == nil && endpoint == "openings" && requestCost(endpoint, rq) == expensive {
			if ans, ok := s.cachedTree(ctx, clientOf(r), rq); ok {
				writeJSON(w, http.StatusOK, ans)
				return
			}
		}
		if err == nil {
			g := s.cheap
			if requestCost(endpoint, rq) == expensive {
				g = s.expensive
			}
			var release func()
			if release, err = g.enter(ctx, clientOf(r)); err == nil {
				out, err = h(ctx, rq)
				release()
			}
		}
		if err != nil {
			status, msg, retry := s.classify(ctx, r, err)
			setRetryAfter(w, retry)
			writeError(w, status, msg)
			return
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// classify turns a handler's error into a status, a message and a
// Retry-After (0: none). What the client did not cause says nothing of
// the server's internals (a connection error names the socket, the role
// and the database): the cause goes to the log only.
func (s *Server) classify(ctx context.Context, r *http.Request, err error) (int, string, int) {
	var re *RequestError
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &re):
		return re.Status, re.Msg, re.RetryAfter
	case r.Context().Err() != nil:
		// The client went away; nobody reads the answer.
		return 499, "request cancelled", 0
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &pgErr) && pgErr.Code == "57014": // query_canceled: the statement timeout
		return http.StatusServiceUnavailable, fmt.Sprintf("the request took too long (limits: %s per request, %s per statement); narrow it or try again",
			s.opt.RequestTimeout, s.opt.StatementTimeout), 0
	}
	s.logf("error: %s %s: %v", r.Method, pdn.Clip(r.URL.RequestURI(), 300), err)
	if databaseDown(err) {
		return http.StatusServiceUnavailable, "the database is not available; try again later (the server's log says why)", unavailableRetry
	}
	return http.StatusInternalServerError, fmt.Sprintf("internal error answering %s (the server's log has the cause)", pdn.Clip(r.URL.Path, 100)), 0
}

// unavailableRetry is the Retry-After, in seconds, of a 503 for a
// database that is not available.
const unavailableRetry = 5

// databaseDown says whether err is the database being out of reach: no
// connection, a connection lost, a server shutting down or starting, or
// out of connections.
func databaseDown(err error) bool {
	var connErr *pgconn.ConnectError
	var netErr net.Error
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &connErr), errors.As(err, &netErr), pgconn.SafeToRetry(err),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		strings.Contains(err.Error(), "closed pool"): // pgxpool's (puddle's) error after Close
		return true
	case errors.As(err, &pgErr):
		// 08: connection exception; 57P01-03: shutdown, crash, starting;
		// 53300: too many connections.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" ||
			pgErr.Code == "57P03" || pgErr.Code == "53300"
	}
	return false
}

func (s *Server) logf(format string, args ...any) {
	if s.log != nil {
		s.log.Printf(format, args...)
	}
}

// read runs fn in a read-only transaction as draughtsdb_reader, with the
// statement timeout: every database call of a request goes through it.
func (s *Server) read(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return schema.ReadOnlyTimeout(ctx, s.pool, s.opt.StatementTimeout, fn)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error: encoding the answer"}`)
	}
	b = pretty(b)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck // the client may be gone
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// recovered answers 500 for a panic instead of dropping the connection,
// and logs it (a panic is a bug: the fuzz test looks for them).
func recovered(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				writeError(w, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p))
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// logged writes one line per request: method, path, status, duration.
func (s *Server) logged(h http.Handler) http.Handler {
	if s.log == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		s.log.Printf("%s %s %d %s", r.Method, pdn.Clip(r.URL.Path, 200), sw.status, time.Since(start).Round(10*time.Microsecond))
	})
}

// Serve answers h on ln until ctx is done, then stops taking requests and
// waits up to grace for those under way (the command's SIGINT/SIGTERM).
// It returns nil after a stop asked by ctx.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      DefaultRequestTimeout + 15*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serr := <-done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// quote quotes a user's value for a message, cut to 64 bytes.
func quote(s string) string { return fmt.Sprintf("%q", pdn.Clip(s, 64)) }

// trimLower is for comparisons of enumerated values (white, black).
func trimLower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
