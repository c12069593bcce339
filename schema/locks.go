package schema

// ImportLock is the PostgreSQL advisory lock (pg_advisory_lock) that
// serialises the writers of games and their statistics in one database:
// imports (duplicate detection compares each batch with the games already
// committed, and ids are drawn in blocks), the opening statistics' rebuild
// and the repairs after a migration. It lives here, beside the schema, so
// that every package that writes those tables takes the same lock; every
// running draughtsdb of any version must agree on it, so it must never
// change.
const ImportLock int64 = 0x6472617567687401
