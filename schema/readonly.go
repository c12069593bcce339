package schema

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ReaderRole is the role user-supplied SQL runs as (migration 0007): it
// cannot log in, and may only SELECT draughtsdb's data tables.
const ReaderRole = "draughtsdb_reader"

// DefaultUserSQLTimeout is the statement_timeout of ReadOnly.
const DefaultUserSQLTimeout = 60 * time.Second

// UserSQLLimits bound what one statement of user SQL may take from the
// server, as PostgreSQL memory values ("32MB", "1GB", "512kB").
type UserSQLLimits struct {
	// WorkMem is work_mem: the memory of each sort or hash of a plan
	// before it spills to temporary files.
	WorkMem string
	// TempFileLimit is temp_file_limit: the temporary files one session
	// may hold at once ("-1": no limit). Only a superuser session, or a
	// role granted SET on it (PostgreSQL 15), can set it; in others the
	// server's own value applies.
	TempFileLimit string
}

// DefaultUserSQLLimits are the limits of user SQL unless SetUserSQLLimits
// says otherwise (the defaults of the user_sql.* settings).
var DefaultUserSQLLimits = UserSQLLimits{WorkMem: "32MB", TempFileLimit: "1GB"}

var userSQLLimits atomic.Pointer[UserSQLLimits]

// SetUserSQLLimits sets the limits every later ReadOnly transaction runs
// user SQL with. A value that is not a PostgreSQL memory value is an
// error naming it.
func SetUserSQLLimits(l UserSQLLimits) error {
	if err := CheckMemoryValue(l.WorkMem, false); err != nil {
		return fmt.Errorf("work_mem %q: %w", l.WorkMem, err)
	}
	if err := CheckMemoryValue(l.TempFileLimit, true); err != nil {
		return fmt.Errorf("temp_file_limit %q: %w", l.TempFileLimit, err)
	}
	userSQLLimits.Store(&l)
	return nil
}

func currentUserSQLLimits() UserSQLLimits {
	if l := userSQLLimits.Load(); l != nil {
		return *l
	}
	return DefaultUserSQLLimits
}

// CheckMemoryValue accepts a PostgreSQL memory value: a whole number with
// the unit kB, MB, GB or TB (64kB..1TB), or "-1" when unlimited is
// allowed.
func CheckMemoryValue(s string, unlimited bool) error {
	want := "a size from 64kB to 1TB such as 32MB or 1GB"
	if unlimited {
		want += ", or -1 for no limit"
		if s == "-1" {
			return nil
		}
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	kb := map[string]int64{"kB": 1, "MB": 1 << 10, "GB": 1 << 20, "TB": 1 << 30}
	mult, ok := kb[s[i:]]
	if i == 0 || i > 10 || !ok {
		return errors.New("want " + want)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || n*mult < 64 || n*mult > 1<<30 {
		return errors.New("out of range; want " + want)
	}
	return nil
}

var (
	// ErrRefused wraps a server error raised because user SQL tried
	// something the read-only role may not do (a write, a function it may not
	// execute, a table it may not read).
	ErrRefused = errors.New("refused: user SQL runs read-only as role " + ReaderRole)
	// ErrReaderUnsafe means the database is not set up for user SQL: the
	// role is missing (migration 0007 not applied) or, in a superuser
	// session, could be left again because set_config or another function
	// kept from it by migration 0007 is still executable by it.
	ErrReaderUnsafe = errors.New("the database is not set up to run user SQL safely")
)

// keptFromReader are the pg_catalog functions migration 0007 revokes from
// PUBLIC; ReadOnly checks that the role cannot run them before running any
// user SQL in a superuser session.
var keptFromReader = []string{"set_config", "lo_from_bytea", "lo_create", "lo_creat", "lo_open", "lo_put",
	"lo_unlink", "lowrite", "pg_terminate_backend", "pg_cancel_backend", "pg_logical_emit_message"}

// checkReaderSQL is the query of checkReader. The function names are
// written in (not a parameter) so that the server keeps one generic plan.
var checkReaderSQL = `SELECT current_user::text,
	(SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user),
	(SELECT rolsuper FROM pg_roles WHERE rolname = session_user),
	EXISTS (SELECT 1 FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace
	        AND p.proname IN ('` + strings.Join(keptFromReader, "', '") + `')
	        AND has_function_privilege(p.oid, 'EXECUTE'))`

// ReadOnly runs fn with a transaction in which SQL written by a user (a
// --where condition, a query file, an explorer's query) may be run:
//
//	BEGIN READ ONLY
//	SET LOCAL statement_timeout = DefaultUserSQLTimeout
//	SET LOCAL work_mem, temp_file_limit (see SetUserSQLLimits)
//	SET LOCAL ROLE draughtsdb_reader
//	fn(tx)
//	ROLLBACK
//
// The transaction is always rolled back, whatever fn returns. Then, as the
// session's own user, every advisory lock the text took is released (those
// taken with pg_advisory_lock outlive the transaction and would stay with the
// pooled connection); a connection that cannot be cleaned is closed rather
// than returned to the pool.
//
// Errors from fn that are refusals by the server (insufficient privilege, a
// write in a read-only transaction) also match ErrRefused; a statement
// that exceeds temp_file_limit fails with an error that names the limit
// and the setting that raises it (ErrTempFileLimit).
//
// Everything fn reads must come from tx. Results that privileged code acts
// on afterwards (ids, rows) are only data: the user text runs nowhere else.
func ReadOnly(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	return ReadOnlyTimeout(ctx, pool, DefaultUserSQLTimeout, fn)
}

// ReadOnlyTimeout is ReadOnly with another statement_timeout (<= 0: the
// default).
func ReadOnlyTimeout(ctx context.Context, pool *pgxpool.Pool, timeout time.Duration, fn func(tx pgx.Tx) error) (err error) {
	if timeout <= 0 {
		timeout = DefaultUserSQLTimeout
	}
	ms := timeout.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer func() {
		// Session-level advisory locks survive the rollback; the text may
		// have taken some (the migration lock, say).
		cleanCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if !conn.Conn().IsClosed() {
			if _, uerr := conn.Exec(cleanCtx, "SELECT pg_advisory_unlock_all()"); uerr != nil {
				_ = conn.Conn().Close(cleanCtx) // the pool drops closed connections
			}
		}
		conn.Release()
	}()
	// One round trip (simple protocol, several statements) for the start.
	// temp_file_limit only a superuser (or a role granted SET on it) may
	// set: elsewhere the block gives up and the server's value applies.
	// The values are checked by SetUserSQLLimits (digits and a unit).
	lim := currentUserSQLLimits()
	begin := fmt.Sprintf("BEGIN READ ONLY; SET LOCAL statement_timeout = %d; SET LOCAL work_mem = '%s'; "+
		"DO $$BEGIN SET LOCAL temp_file_limit = '%s'; EXCEPTION WHEN insufficient_privilege THEN NULL; END$$; SET LOCAL ROLE %s",
		ms, lim.WorkMem, lim.TempFileLimit, pgx.Identifier{ReaderRole}.Sanitize())
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{BeginQuery: begin})
	if err != nil {
		// A failed SET leaves the transaction open and aborted: end it
		// before the connection goes back to the pool.
		if !conn.Conn().IsClosed() {
			_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		}
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42704" { // undefined_object: no such role
			return fmt.Errorf("%w: role %s does not exist (migration 0007_readonly_role not applied): %v", ErrReaderUnsafe, ReaderRole, err)
		}
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // read only: nothing to keep
	if err := checkReader(ctx, tx); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return refusal(err, lim)
	}
	return nil
}

// ErrTempFileLimit marks a statement of user SQL that wrote more
// temporary files than temp_file_limit allows.
var ErrTempFileLimit = errors.New("user SQL exceeded temp_file_limit")

// TempFileLimitSetting names the setting that raises ErrTempFileLimit's
// limit, for its message.
var TempFileLimitSetting = "user_sql.temp_file_limit"

type limitError struct {
	err error
	msg string
}

func (e *limitError) Error() string   { return e.msg }
func (e *limitError) Unwrap() []error { return []error{e.err, ErrTempFileLimit} }

// checkReader verifies, inside the transaction and after SET ROLE, that the
// current role is the reader and that, when the session user is a superuser
// (who may SET ROLE to anyone), the reader cannot run set_config or the
// other functions migration 0007 kept from it. That happens when the
// migration ran as a non-superuser, whose REVOKEs only warn.
func checkReader(ctx context.Context, tx pgx.Tx) error {
	var (
		current             string
		readerSuper, escape bool
		sessionSuper        bool
	)
	err := tx.QueryRow(ctx, checkReaderSQL).Scan(&current, &readerSuper, &sessionSuper, &escape)
	if err != nil {
		return fmt.Errorf("checking role %s: %w", ReaderRole, err)
	}
	switch {
	case current != ReaderRole:
		return fmt.Errorf("%w: SET ROLE %s left the session as %q", ErrReaderUnsafe, ReaderRole, current)
	case readerSuper:
		return fmt.Errorf("%w: role %s is a superuser or bypasses row security", ErrReaderUnsafe, ReaderRole)
	case sessionSuper && escape:
		return fmt.Errorf("%w: role %s may still execute set_config or another function migration 0007 revokes "+
			"(it was applied by a role that is not a superuser); have a superuser run the REVOKEs of "+
			"schema/migrations/0007_readonly_role.sql in this database", ErrReaderUnsafe, ReaderRole)
	}
	return nil
}

// refusal marks the server's refusals with ErrRefused, and a statement
// stopped by temp_file_limit with ErrTempFileLimit, keeping err.
func refusal(err error, lim UserSQLLimits) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		if pgErr.Code == "53400" && strings.Contains(pgErr.Message, "temp_file_limit") { // configuration_limit_exceeded
			return &limitError{err: err, msg: fmt.Sprintf("%v: the query needed more temporary files (sorts and hashes larger than "+
				"work_mem, %s) than temp_file_limit allows (%s, setting %s): narrow it, or raise the setting (-1: no limit)",
				ErrTempFileLimit, lim.WorkMem, lim.TempFileLimit, TempFileLimitSetting)}
		}
		switch pgErr.Code {
		case "42501", // insufficient_privilege
			"25006": // read_only_sql_transaction
			return &refusedError{err: err}
		}
	}
	return err
}

// refusedError is err that also matches ErrRefused.
type refusedError struct{ err error }

func (e *refusedError) Error() string   { return e.err.Error() + " (" + ErrRefused.Error() + ")" }
func (e *refusedError) Unwrap() []error { return []error{e.err, ErrRefused} }
