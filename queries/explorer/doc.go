// Package explorer is `draughtsdb serve`: a JSON API and a web page for
// browsing the imported games by position — the opening tree, the games
// that reached a position, a game with its evaluations, a player's record.
//
// # No second implementation
//
// Every answer comes from the code the command line uses: the tree is
// openings.Tree (the opening statistics), the line is replay.PlayLine, a
// stored game is codec.Decode, the games at a position and a player's
// record are the named queries games_at_position and player
// (queries.RunTx). What the CLI has no code for — a tree over the games
// that pass a filter, a game's evaluations and move classes, player-name
// completion — is written here, from the position index and the games,
// read through the store's fixed statements (schema/explorer.sql and
// players.sql) whose every user value is a bound parameter: no SQL text
// is ever built from a request.
//
// # Read only, bounded
//
// Each request runs in one schema.ReadOnlyTimeout transaction (READ ONLY,
// role draughtsdb_reader, a statement timeout, rolled back), under a
// request deadline (Options.RequestTimeout). Page sizes, the number of
// moves and the length of every parameter are capped, and a filtered tree
// counts at most Options.MaxFilterGames games (the newest), saying so; it
// keeps only its counts, decoding each game up to the position
// (codec.Visitor), so its memory does not grow with the games.
//
// # Shared fairly
//
// Requests go through one of two gates (limits.go): expensive ones (a
// filtered tree or games list, a page after the first) at most
// Options.MaxExpensive at once and Options.MaxExpensivePerClient per
// client address, holding at most that many of the pool's connections;
// cheap ones through a gate of their own, so they never queue behind
// expensive ones. Over a bound a request waits Options.QueueWait, then is
// 429 or 503 with Retry-After. Games-list cursors are signed (HMAC with a
// key drawn per process), so none can be made up to force a deep scan;
// filtered pages go on by game id. A popular position's filtered games
// are the newest games checked one by one, at most Options.MaxScanGames
// per request, rather than every game at the position (selectGames).
//
// # Not an open door
//
// When the database is out of reach the answer is 503 without the
// connection's details (they go to Options.Log). Every answer forbids
// framing (frame-ancestors 'none'), and with Options.AllowedHosts (the
// serve command sets LoopbackHosts when it listens on loopback) a request
// naming another Host is refused: a DNS rebinding cannot read the API
// from another site's page.
//
// # Errors
//
// A request that cannot be answered because of what it asks gets 400 with
// {"error": "..."} saying what is wrong (an illegal move names the legal
// ones, as `draughtsdb openings` does); an unknown game or player gets
// 404; an endpoint asked with a method other than GET or HEAD gets 405
// with Allow; a request that runs out of time, or finds the server busy or
// the database down, gets 503 (429 for a client over its own bound). No
// input gives 500: a fuzz test (FuzzAPI) sends arbitrary parameters to a
// real database.
//
// # The page
//
// web/ holds the page (plain HTML, JS and CSS, embedded in the binary: no
// build step, no network): an SVG board for every variant's board, the
// tree, the move list, the filters, the games at the position and a game
// viewer. Its URL holds the state (variant, moves, fen, filters, game), so
// a reload or a shared link shows the same thing.
//
// The player page (web/player.html, player.js, player.css: apart from the
// explorer's files) is /api/player and /api/players?search= shown: the
// player is package players' (every spelling of a name), their record is
// players.Show's, and their opening trees are counted from their games,
// each decoded up to the position as a filtered tree is (countedNode
// names the moves). Every player's name on the pages links to it. What
// both pages draw alike (a result bar, a player's link, a result with its
// winner, a row of a games list) is web/common.js, which each loads before
// its own script, so the two cannot drift apart.
package explorer
