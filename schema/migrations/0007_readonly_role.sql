-- 0007: draughtsdb_reader, the role user-supplied SQL runs as.
--
-- Text written by a person (analyze --where, the named queries, the coming
-- explorer) runs through schema.ReadOnly: BEGIN READ ONLY, SET LOCAL
-- statement_timeout, SET LOCAL ROLE draughtsdb_reader, the text, ROLLBACK.
-- A READ ONLY transaction alone does not stop functions with side effects
-- outside the tables (large objects, signals to other sessions, server
-- files, configuration reloads, WAL switches), and the session is usually a
-- superuser (the embedded cluster's own), so the text must run as a role
-- that may do nothing but read draughtsdb's tables.
--
-- Roles belong to the cluster, not to a database: every database of a
-- cluster runs this file (tests create many), possibly at the same moment
-- (the migration lock is per database), so the role is created only when
-- missing and a concurrent creation is not an error.
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'draughtsdb_reader') THEN
		BEGIN
			CREATE ROLE draughtsdb_reader NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;
			COMMENT ON ROLE draughtsdb_reader IS 'draughtsdb: runs user-supplied SQL (read only; see schema migration 0007)';
		EXCEPTION WHEN duplicate_object OR unique_violation THEN
			NULL; -- created meanwhile by the migration of another database
		END;
	ELSIF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'draughtsdb_reader'
	              AND (rolcanlogin OR rolsuper OR rolcreatedb OR rolcreaterole OR rolreplication OR rolbypassrls)) THEN
		-- Made by someone else with powers it must not have. (Only altered when
		-- needed: concurrent ALTER ROLEs of one role from several databases
		-- could fail with "tuple concurrently updated".)
		ALTER ROLE draughtsdb_reader NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
	END IF;
	-- SET ROLE needs membership unless the session is a superuser.
	IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
	   AND NOT pg_has_role(current_user, 'draughtsdb_reader', 'MEMBER') THEN
		BEGIN
			EXECUTE format('GRANT draughtsdb_reader TO %I', current_user);
		EXCEPTION WHEN unique_violation THEN
			NULL;
		END;
	END IF;
END
$$;

-- What it may read: the data, not the migration bookkeeping or the work
-- queue of analyze. A later migration that adds a table user SQL should
-- see grants SELECT on it to draughtsdb_reader.
GRANT SELECT ON sources, players, games, position_index, rejected_games, duplicates, games_same_moves,
	evaluations, move_annotations, opening_index, opening_names TO draughtsdb_reader;

-- Functions every role may run by default (granted to PUBLIC) that act
-- outside the transaction's tables. A privilege granted to PUBLIC cannot be
-- taken from one role alone, so it is taken from PUBLIC in this database;
-- superusers keep them (they bypass privileges). Those PostgreSQL already
-- keeps from PUBLIC (pg_read_file, pg_reload_conf, pg_stat_reset,
-- pg_switch_wal, lo_import, lo_export, ...) are refused to the role as they
-- are.
--   set_config: in a superuser session, set_config('role', 'none', true)
--     would end the SET ROLE (and set_config('session_authorization', ...)
--     would pick any user), then query_to_xml('...') runs anything as the
--     superuser;
--   lo_*, loread, lowrite: large objects, even in a READ ONLY transaction;
--   pg_terminate_backend, pg_cancel_backend: signals to sessions of the
--     same role;
--   pg_logical_emit_message: writes WAL, even in a READ ONLY transaction.
-- The revocation needs the functions' owner (a superuser); run by another
-- role it only warns, and schema.ReadOnly then refuses to run user SQL in a
-- superuser session, where the role could be left.
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN
		SELECT p.oid::regprocedure FROM pg_proc p
		WHERE p.pronamespace = 'pg_catalog'::regnamespace
		  AND (p.proname LIKE 'lo\_%' OR p.proname IN ('loread', 'lowrite', 'set_config',
		       'pg_terminate_backend', 'pg_cancel_backend', 'pg_logical_emit_message'))
		ORDER BY 1
	LOOP
		EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
	END LOOP;
	IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
		RAISE WARNING 'draughtsdb: % is not a superuser: functions such as set_config and lo_from_bytea stay executable by every role; user SQL runs as draughtsdb_reader all the same', current_user;
	END IF;
END
$$;
