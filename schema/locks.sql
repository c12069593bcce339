-- PostgreSQL advisory locks (see locks.go for the keys). A session lock
-- belongs to the connection that took it and outlives its transactions;
-- a transaction lock ends with the transaction.

-- name: lock
SELECT pg_advisory_lock($1);

-- name: try-lock
SELECT pg_try_advisory_lock($1);

-- name: unlock
SELECT pg_advisory_unlock($1);

-- name: xact-lock
SELECT pg_advisory_xact_lock($1);
