package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
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
	// CacheTTL is how long a page of the games at a position (the named
	// query games_at_position) is kept for the next request; < 0: never.
	// Imported games show in those pages after at most this long.
	CacheTTL time.Duration
	// Log receives one line per request (method, path, status, duration);
	// nil: none.
	Log io.Writer
}

// Server answers the explorer's API and serves its page.
type Server struct {
	pool    *pgxpool.Pool
	opt     Options
	variant *rules.Variant
	log     *log.Logger
	cache   *pageCache
}

// New returns a Server reading pool. It checks DefaultVariant.
func New(pool *pgxpool.Pool, opt Options) (*Server, error) {
	if opt.DefaultVariant == "" {
		opt.DefaultVariant = "russian"
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
	s := &Server{pool: pool, opt: opt, variant: v, cache: &pageCache{ttl: opt.CacheTTL, maxEntries: 4096, now: time.Now}}
	if opt.Log != nil {
		s.log = log.New(opt.Log, "", log.LstdFlags)
	}
	return s, nil
}

// Handler returns the routes: the API under /api/ and the page at /.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /api/variants", s.api(nil, s.variants))
	mux.Handle("GET /api/position", s.api(positionParams, s.position))
	mux.Handle("GET /api/openings", s.api(append(positionParams, filterParams...), s.openings))
	mux.Handle("GET /api/games", s.api(append(append(positionParams, filterParams...), "cursor", "limit"), s.games))
	mux.Handle("GET /api/game/{id}", s.api(nil, s.game))
	mux.Handle("GET /api/player", s.api([]string{"name"}, s.player))
	mux.Handle("GET /api/players", s.api([]string{"prefix", "limit"}, s.players))
	mux.Handle("GET /api/pattern", s.api(patternParams, s.patternSearch))
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
	return s.logged(recovered(mux))
}

// Errors a handler returns for what the request asks (see RequestError).
var (
	ErrBadRequest = errors.New("bad request")
	ErrNotFound   = errors.New("not found")
)

// RequestError is an answer other than 200 caused by the request: its
// status and the message for the client.
type RequestError struct {
	Status int
	Msg    string
	Err    error // ErrBadRequest or ErrNotFound, and the cause if any
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

// api wraps an API handler: it checks the query string (well formed, only
// the parameters listed, each once, valid UTF-8 without control
// characters), sets the request deadline and writes the JSON answer or
// the error.
func (s *Server) api(allowed []string, h func(ctx context.Context, rq *request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.RequestTimeout)
		defer cancel()
		rq, err := parseRequest(r, allowed)
		var out any
		if err == nil {
			out, err = h(ctx, rq)
		}
		if err != nil {
			status, msg := s.classify(ctx, r, err)
			writeError(w, status, msg)
			return
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// classify turns a handler's error into a status and a message.
func (s *Server) classify(ctx context.Context, r *http.Request, err error) (int, string) {
	var re *RequestError
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &re):
		return re.Status, re.Msg
	case r.Context().Err() != nil:
		// The client went away; nobody reads the answer.
		return 499, "request cancelled"
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &pgErr) && pgErr.Code == "57014": // query_canceled: the statement timeout
		return http.StatusServiceUnavailable, fmt.Sprintf("the request took too long (limits: %s per request, %s per statement); narrow it or try again",
			s.opt.RequestTimeout, s.opt.StatementTimeout)
	}
	if s.log != nil {
		s.log.Printf("error: %s %s: %v", r.Method, pdn.Clip(r.URL.RequestURI(), 300), err)
	}
	return http.StatusInternalServerError, "internal error: " + pdn.Clip(err.Error(), 300)
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
