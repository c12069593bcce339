// draughtsdb explorer: the page. Plain JS, no build step; everything it
// shows comes from the JSON API under /api/ (see the README's Explorer
// section). The URL holds the state, so a reload or a shared link shows
// the same position, filters and game.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  // The pieces both pages draw alike (common.js).
  const { td, bar, playerLink, gameRow } = draughtsdb;
  const SVG = 'http://www.w3.org/2000/svg';
  const S = 60; // pixels per square in the board's viewBox
  // min_rating: both players rated at least that (games without a rating
  // for one of them are left out).
  const FILTERS = ['player', 'color', 'event', 'from', 'to', 'min_rating'];
  const MARKS = { blunder: '??', mistake: '?', inaccuracy: '?!' };

  // The state, mirrored in the URL.
  const state = {
    variant: '', fen: '', moves: [], ply: 0,
    filters: { player: '', color: '', event: '', from: '', to: '', min_rating: '' },
    labels: '', flip: false, game: 0, gply: 0,
    source: 'archive',
  };
  let variants = {};      // name -> /api/variants entry
  let defaultVariant = '';
  let pos = null;         // the last /api/position answer
  let seq = 0;            // answers of older requests are dropped
  let selected = 0;       // the square whose piece is picked up
  let drag = null;        // {from, ghost} while a piece is dragged
  let game = null;        // the open /api/game answer
  let gvar = null;        // a variation of the open game being shown: {moves, i, ply}
  let gamesCursor = '';

  // ---- API ----
  async function api(path, params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) {
      if (v !== '' && v !== undefined && v !== null) q.set(k, v);
    }
    const qs = q.toString();
    const resp = await fetch(path + (qs ? '?' + qs : ''));
    let body;
    try { body = await resp.json(); } catch (e) { body = { error: 'the server answered ' + resp.status }; }
    if (!resp.ok) throw new Error(body.error || resp.statusText);
    return body;
  }

  function status(msg, isError) {
    const el = $('status');
    el.textContent = msg || '';
    el.classList.toggle('error', !!isError);
  }

  // ---- URL ----
  function toURL() {
    const q = new URLSearchParams();
    q.set('variant', state.variant);
    if (state.fen) q.set('fen', state.fen);
    if (state.moves.length) q.set('moves', state.moves.join(' '));
    if (state.ply !== state.moves.length) q.set('ply', String(state.ply));
    for (const k of FILTERS) if (state.filters[k]) q.set(k, state.filters[k]);
    if (state.source && state.source !== 'archive') q.set('source', state.source);
    if (state.labels) q.set('labels', state.labels);
    if (state.flip) q.set('flip', '1');
    if (state.game) {
      q.set('game', String(state.game));
      if (state.gply) q.set('gply', String(state.gply));
    }
    return '?' + q.toString();
  }

  function fromURL() {
    const q = new URLSearchParams(location.search);
    state.variant = q.get('variant') || '';
    state.fen = q.get('fen') || '';
    state.moves = (q.get('moves') || '').split(/[\s,]+/).filter(Boolean);
    const ply = parseInt(q.get('ply') || '', 10);
    state.ply = Number.isFinite(ply) && ply >= 0 && ply <= state.moves.length ? ply : state.moves.length;
    for (const k of FILTERS) state.filters[k] = q.get(k) || '';
    state.source = q.get('source') || 'archive';
    state.labels = q.get('labels') || '';
    state.flip = q.get('flip') === '1';
    state.game = parseInt(q.get('game') || '0', 10) || 0;
    state.gply = parseInt(q.get('gply') || '0', 10) || 0;
  }

  function saveURL() {
    const u = toURL();
    if (u !== location.search) history.replaceState(null, '', u);
  }

  function posParams() {
    return { variant: state.variant, fen: state.fen, moves: state.moves.slice(0, state.ply).join(' ') };
  }
  // ---- sources and downloads ----
  // The source selection every count, list and download covers: archive
  // (imported files, the server's default), match, all, or source ids
  // and names.
  function sourceParams() {
    return state.source && state.source !== 'archive' ? { source: state.source } : {};
  }
  function sourceLabel() {
    switch (state.source || 'archive') {
      case 'archive': return 'archive sources';
      case 'match': return 'engine-match sources';
      case 'all': return 'all sources';
    }
    return 'sources ' + state.source;
  }
  function fillSources() {
    const known = ['archive', 'match', 'all'].includes(state.source || 'archive');
    $('source-kind').value = known ? (state.source || 'archive') : 'custom';
    $('source-ids').hidden = known;
    if (!known) $('source-ids').value = state.source;
  }
  function updateDownloads() {
    for (const format of ['pdn', 'csv']) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...posParams(), ...sourceParams(), format })) if (v) q.set(k, v);
      $('download-' + format).href = '/api/download?' + q.toString();
    }
  }
  function bindSources() {
    $('source-kind').addEventListener('change', () => {
      const kind = $('source-kind').value;
      $('source-ids').hidden = kind !== 'custom';
      if (kind === 'custom') {
        $('source-ids').focus();
        return;
      }
      state.source = kind;
      refresh();
    });
    $('source-ids').addEventListener('change', () => {
      state.source = $('source-ids').value.trim() || 'archive';
      refresh();
    });
  }

  function filterParams() {
    const f = {};
    for (const k of FILTERS) if (state.filters[k]) f[k] = state.filters[k];
    if (!f.player) delete f.color;
    return f;
  }

  // ---- board ----
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // squareXY is the top left corner of square s in the drawing: the
  // variant's bottom side (or the other, flipped) at the bottom.
  function squareXY(v, s, flip) {
    const sq = v.squares[s - 1];
    const blackBottom = (v.bottom === 'black') !== flip;
    if (blackBottom) return [(v.board.width - sq.file) * S, (sq.rank - 1) * S];
    return [(sq.file - 1) * S, (v.board.height - sq.rank) * S];
  }

  function labelMode(v) {
    return state.labels || v.notation;
  }

  // drawBoard draws variant v with pieces into svg. opts: last [from,to],
  // selected square, targets (squares), interactive.
  function drawBoard(svg, v, pieces, opts) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const w = v.board.width * S, h = v.board.height * S;
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    el('rect', { x: 0, y: 0, width: w, height: h, class: 'sq-light' }, svg);
    const mode = labelMode(v);
    const last = opts.last || [];
    for (const sq of v.squares) {
      const [x, y] = squareXY(v, sq.n, state.flip);
      let cls = 'sq sq-dark';
      if (sq.n === opts.selected) cls = 'sq sq-sel';
      else if (last.includes(sq.n)) cls = 'sq sq-last';
      el('rect', { x, y, width: S, height: S, class: cls, 'data-sq': sq.n }, svg);
    }
    const put = (list, color, king) => {
      for (const s of list || []) {
        if (s < 1 || s > v.squares.length) continue;
        const [x, y] = squareXY(v, s, state.flip);
        drawPiece(svg, x + S / 2, y + S / 2, color, king, s);
      }
    };
    put(pieces.white, 'white', false);
    put(pieces.black, 'black', false);
    put(pieces.white_kings, 'white', true);
    put(pieces.black_kings, 'black', true);
    drawLabels(svg, v, mode);
    for (const s of opts.targets || []) {
      const [x, y] = squareXY(v, s, state.flip);
      el('circle', { cx: x + S / 2, cy: y + S / 2, r: 9, class: 'target' }, svg);
    }
  }

  // drawLabels writes the squares' numbers (or algebraic names) in their
  // top left corners, after the pieces so that none hides under a piece,
  // each with a halo of the dark square's colour to read on a piece.
  function drawLabels(svg, v, mode) {
    if (mode === 'none') return;
    for (const sq of v.squares) {
      const [x, y] = squareXY(v, sq.n, state.flip);
      const t = el('text', { x: x + 2, y: y + 15, class: 'label', 'data-label': sq.n }, svg);
      t.textContent = mode === 'algebraic' ? sq.algebraic : sq.numeric;
    }
  }

  function drawPiece(svg, cx, cy, color, king, sq) {
    const g = el('g', { class: 'piece', 'data-piece': sq || '' }, svg);
    pieceShapes(g, cx, cy, color, king);
    return g;
  }

  function pieceShapes(g, cx, cy, color, king) {
    // A little smaller than the square, to leave its corner's label free.
    el('circle', { cx, cy, r: S * 0.38, class: 'piece-' + color }, g);
    el('circle', { cx, cy, r: S * 0.28, class: 'piece-' + color }, g);
    if (king) {
      el('path', {
        d: `M${cx - 13} ${cy + 7} L${cx - 15} ${cy - 7} L${cx - 6} ${cy} L${cx} ${cy - 11} L${cx + 6} ${cy} L${cx + 15} ${cy - 7} L${cx + 13} ${cy + 7} Z`,
        class: 'crown-' + color,
      }, g);
    }
  }

  function renderBoard() {
    const v = variants[state.variant];
    if (!v || !pos) return;
    const line = pos.line;
    const last = line.length ? [line[line.length - 1].from, line[line.length - 1].to] : [];
    const targets = selected ? pos.legal_moves.filter((m) => m.from === selected).map((m) => m.to) : [];
    drawBoard($('board'), v, pos.pieces, { last, selected, targets });
    $('tomove').textContent = pos.outcome ? pos.outcome : (pos.side_to_move === 'white' ? 'White' : 'Black') + ' to move';
    const info = [];
    if (pos.name) info.push(pos.name);
    if (pos.eval !== null) info.push('eval ' + fmtEval(pos.eval) + ' (' + pos.eval_count + ')');
    $('posinfo').textContent = info.join(' · ');
    $('fen').value = pos.fen;
    $('back').disabled = $('start').disabled = state.ply === 0;
    $('forward').disabled = $('end').disabled = state.ply >= state.moves.length;
  }

  function squareAt(clientX, clientY) {
    const e = document.elementFromPoint(clientX, clientY);
    const r = e && e.closest ? e.closest('[data-sq]') : null;
    return r ? parseInt(r.getAttribute('data-sq'), 10) : 0;
  }

  function movesFrom(sq) {
    return pos ? pos.legal_moves.filter((m) => m.from === sq) : [];
  }

  function tryMove(from, to) {
    const cands = pos.legal_moves.filter((m) => m.from === from && m.to === to);
    if (cands.length === 0) return false;
    selected = 0;
    if (cands.length === 1) {
      playMove(cands[0].move);
      return true;
    }
    // Two captures with the same start and end: say which path.
    const ch = $('chooser');
    ch.textContent = '';
    const p = document.createElement('div');
    p.textContent = 'Which capture?';
    ch.appendChild(p);
    for (const c of cands) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = c.move + '  (' + c.algebraic + ')';
      b.addEventListener('click', () => { ch.hidden = true; playMove(c.move); });
      ch.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => { ch.hidden = true; renderBoard(); });
    ch.appendChild(cancel);
    ch.hidden = false;
    renderBoard();
    return true;
  }

  function boardPoint(svg, clientX, clientY) {
    const pt = svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  function onPointerDown(ev) {
    if (!pos || ev.button > 0) return;
    const sq = squareAt(ev.clientX, ev.clientY);
    if (!sq) return;
    ev.preventDefault();
    if (selected && selected !== sq && tryMove(selected, sq)) return;
    if (movesFrom(sq).length === 0) {
      selected = 0;
      renderBoard();
      return;
    }
    selected = sq;
    renderBoard();
    const svg = $('board');
    const color = pos.side_to_move;
    const king = (pos.pieces[color + '_kings'] || []).includes(sq);
    const ghost = el('g', { class: 'piece ghost' }, svg);
    ghost.style.display = 'none';
    drag = { from: sq, ghost, moved: false, color, king };
    try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic events */ }
  }

  function onPointerMove(ev) {
    if (!drag) return;
    const p = boardPoint($('board'), ev.clientX, ev.clientY);
    drag.moved = true;
    drag.ghost.style.display = '';
    while (drag.ghost.firstChild) drag.ghost.removeChild(drag.ghost.firstChild);
    pieceShapes(drag.ghost, p.x, p.y, drag.color, drag.king);
  }

  function onPointerUp(ev) {
    if (!drag) return;
    const d = drag;
    drag = null;
    d.ghost.remove();
    const sq = squareAt(ev.clientX, ev.clientY);
    if (d.moved && sq && sq !== d.from) tryMove(d.from, sq);
  }

  // ---- moves ----
  function playMove(text) {
    if (state.ply < state.moves.length && state.moves[state.ply] === text) {
      state.ply++;
    } else {
      state.moves = state.moves.slice(0, state.ply).concat([text]);
      state.ply = state.moves.length;
    }
    refresh();
  }

  function goPly(n) {
    n = Math.max(0, Math.min(state.moves.length, n));
    if (n === state.ply) return;
    state.ply = n;
    selected = 0;
    refresh();
  }

  function startSide() {
    if (state.fen) return /^\s*b/i.test(state.fen) ? 'black' : 'white';
    const v = variants[state.variant];
    return v ? v.first_to_move : 'white';
  }

  // firstMover is the side that moves first in the variant called name:
  // the numbers of a move list follow it (English: Black's move is 1.).
  function firstMover(name) {
    const v = variants[name];
    return v ? v.first_to_move : 'white';
  }

  // resultLabel writes a result with its winner by colour (common.js).
  function resultLabel(result, variant) {
    return draughtsdb.resultLabel(result, firstMover(variant));
  }

  // fillMoveList writes moves (texts) of variant (a name: the line's is the
  // selected one, an open game's its own, whatever is selected) with their
  // numbers into ol; side moves first; current is the 1-based ply shown
  // (0: the start).
  function fillMoveList(ol, variant, texts, side, current, onPick, extra) {
    ol.textContent = '';
    let number = 1;
    const first = firstMover(variant);
    texts.forEach((t, i) => {
      if (side === first || i === 0) {
        const n = document.createElement('li');
        n.className = 'num';
        n.textContent = number + (side === first ? '.' : '...');
        ol.appendChild(n);
      }
      const li = document.createElement('li');
      li.textContent = t;
      li.dataset.ply = String(i + 1);
      if (i + 1 === current) li.classList.add('current');
      if (i + 1 > current) li.classList.add('future');
      if (extra) extra(li, i);
      li.addEventListener('click', () => onPick(i + 1));
      ol.appendChild(li);
      if (side !== first) number++;
      side = side === 'white' ? 'black' : 'white';
    });
  }

  // scrollToCurrent scrolls the list (not the page) to its current move.
  function scrollToCurrent(ol) {
    const li = ol.querySelector('.current');
    if (!li) return;
    const top = li.offsetTop;
    if (top < ol.scrollTop || top + li.offsetHeight > ol.scrollTop + ol.clientHeight) {
      ol.scrollTop = Math.max(0, top - ol.clientHeight / 2);
    }
  }

  function renderLine() {
    fillMoveList($('line'), state.variant, state.moves, startSide(), state.ply, goPly);
    scrollToCurrent($('line'));
  }

  // ---- tree ----
  function fmtEval(e) {
    if (e === null || e === undefined) return '';
    return (e > 0 ? '+' : '') + e.toFixed(2);
  }

  function renderTree(tree) {
    const p = tree.position;
    const body = $('tree').tBodies[0];
    body.textContent = '';
    const total = document.createElement('tr');
    total.className = 'total';
    td(total, 'Σ');
    td(total, String(p.games), 'num');
    td(total, bar(p.white_wins, p.draws, p.black_wins));
    td(total, p.score === null ? '' : p.score.toFixed(1) + '%', 'num');
    td(total, '', 'num');
    td(total, p.name || '');
    body.appendChild(total);
    for (const m of tree.moves) {
      const tr = document.createElement('tr');
      tr.dataset.move = m.move;
      tr.title = m.algebraic === m.move ? m.move : m.move + ' (' + m.algebraic + ')';
      td(tr, labelMode(variants[state.variant]) === 'algebraic' ? m.algebraic : m.move, 'move');
      td(tr, String(m.games), 'num games');
      td(tr, bar(m.white_wins, m.draws, m.black_wins));
      td(tr, m.score === null ? '' : m.score.toFixed(1) + '%', 'num');
      td(tr, m.eval === undefined ? '' : fmtEval(m.eval), 'num');
      td(tr, m.name || '');
      tr.addEventListener('click', () => playMove(m.move));
      body.appendChild(tr);
    }
    let head = p.source === 'games'
      ? `${p.games} of the ${p.counted} games that pass the filter played a move from here`
      : `${p.games} games of the ${sourceLabel()} in the opening statistics played a move from here`;
    if (tree.moves.length === 0) head = p.source === 'games' ? 'No game that passes the filter played a move from here' : `No game of the ${sourceLabel()} in the opening statistics played a move from here`;
    head += endingText(p);
    $('tree-head').textContent = head;
    const notes = $('notes');
    notes.textContent = '';
    for (const n of p.notes || []) {
      const li = document.createElement('li');
      li.textContent = n;
      notes.appendChild(li);
    }
  }

  // endingText says how many games ended at the position (its final
  // position): they played no move here, so the counts above leave them out.
  function endingText(p) {
    if (p.ending === null || p.ending === undefined) return '';
    return p.ending === 1 ? '; 1 game ended here' : `; ${p.ending} games ended here`;
  }

  // ---- games ----
  async function loadGames(reset) {
    const my = seq;
    if (reset) {
      gamesCursor = '';
      $('games').tBodies[0].textContent = '';
    }
    const page = await api('/api/games', { ...posParams(), ...filterParams(), ...sourceParams(), limit: 20, cursor: gamesCursor });
    if (my !== seq) return;
    const body = $('games').tBodies[0];
    for (const g of page.games) {
      const tr = gameRow(g, firstMover(g.variant), () => openGame(g.id, 0, true));
      if (g.id === state.game) tr.classList.add('open');
      body.appendChild(tr);
    }
    if (body.rows.length === 0) {
      const tr = document.createElement('tr');
      td(tr, 'No game reached this position.').colSpan = 6;
      body.appendChild(tr);
    }
    gamesCursor = page.next_cursor || '';
    $('more').hidden = !gamesCursor;
  }

  // gameTitle writes "White – Black result" into h with the names linked.
  function gameTitle(h, g, result) {
    h.textContent = '';
    h.appendChild(playerLink(g.white));
    h.appendChild(document.createTextNode(' – '));
    h.appendChild(playerLink(g.black));
    const r = document.createElement('span');
    r.className = 'result';
    r.textContent = result;
    h.appendChild(r);
  }

  // ---- game viewer ----
  // openGame shows game id at ply, or, atPosition, where the game reached
  // the explorer's position.
  async function openGame(id, ply, atPosition) {
    gvar = null;
    state.game = id;
    state.gply = ply || 0;
    document.body.dataset.busy = '1';
    try {
      game = await api('/api/game/' + id);
    } catch (e) {
      game = null;
      state.game = 0;
      status(e.message, true);
      saveURL();
      return;
    } finally {
      document.body.dataset.busy = '0';
    }
    if (atPosition && pos) {
      const i = game.moves.findIndex((m) => m.fen === pos.fen);
      state.gply = i >= 0 ? i + 1 : 0;
    }
    state.gply = Math.max(0, Math.min(game.moves.length, state.gply));
    $('viewer').hidden = false;
    document.querySelector('main').classList.add('with-game');
    for (const tr of $('games').tBodies[0].rows) tr.classList.toggle('open', tr.dataset.game === String(id));
    renderGame();
  }

  function closeGame() {
    gvar = null;
    state.game = 0;
    state.gply = 0;
    game = null;
    $('viewer').hidden = true;
    document.querySelector('main').classList.remove('with-game');
    for (const tr of $('games').tBodies[0].rows) tr.classList.remove('open');
    saveURL();
  }

  function parseFEN(fen) {
    const out = { white: [], black: [], white_kings: [], black_kings: [] };
    for (const part of fen.split(':').slice(1)) {
      const c = part[0];
      if (c !== 'W' && c !== 'B') continue;
      for (let tok of part.slice(1).split(',')) {
        tok = tok.trim();
        if (!tok) continue;
        let king = false;
        if (tok[0] === 'K') { king = true; tok = tok.slice(1); }
        const [a, b] = tok.split('-').map((x) => parseInt(x, 10));
        for (let s = a; s <= (b || a); s++) out[(c === 'W' ? 'white' : 'black') + (king ? '_kings' : '')].push(s);
      }
    }
    return out;
  }

  // gameStep shows ply n of the open game. Inside a variation, one step
  // forward or back moves along the variation (forward stops at its last
  // move; back from its first move returns to the game where it left it);
  // any other step leaves it for ply n.
  function gameStep(n) {
    if (!game) return;
    if (gvar) {
      const step = n - state.gply;
      if (step === 1 || step === -1) {
        const j = gvar.i + step;
        if (j >= 0 && j < gvar.moves.length && gvar.moves[j].fen) gvar.i = j;
        else if (j < 0) gvar = null;
        renderGame();
        return;
      }
      gvar = null;
    }
    state.gply = Math.max(0, Math.min(game.moves.length, n));
    renderGame();
  }

  // html makes an HTML element of class cls in parent.
  function html(name, cls, parent) {
    const e = document.createElement(name);
    if (name === 'button') e.type = 'button';
    e.className = cls;
    parent.appendChild(e);
    return e;
  }

  // enterVariation shows move i of a variation (its moves) of ply.
  function enterVariation(moves, i, ply) {
    if (!moves[i] || !moves[i].fen) return;
    gvar = { moves, i, ply };
    renderGame();
  }

  // noteText is a move's strength mark and NAGs as written ("!", " $14").
  function noteText(m) {
    let t = m.strength || '';
    for (const n of m.nags || []) t += ' $' + n;
    return t;
  }

  // addComments writes the author's comments into parent.
  function addComments(parent, comments) {
    for (const c of comments || []) {
      const p = html('span', 'comment', parent);
      p.textContent = c;
    }
  }

  // addVariation writes a variation as a line of moves into parent: a
  // verified move can be clicked to show its position; an unverified
  // variation (kept as written: a move in it is not legal) is text only.
  // Nested variations follow the move they are alternatives to.
  function addVariation(parent, v, ply) {
    const line = html('div', 'variation' + (v.verified ? '' : ' unverified'), parent);
    if (!v.verified) line.title = 'not verified: a move in it is not legal there; kept as written';
    addComments(line, v.comments);
    v.moves.forEach((m, i) => {
      if (m.number) {
        const n = html('span', 'num', line);
        n.textContent = m.number + (m.black ? '...' : '.');
      }
      const s = html('span', 'vmove' + (m.fen ? ' playable' : ''), line);
      s.textContent = m.move + noteText(m);
      if (gvar && gvar.moves === v.moves && gvar.i === i) s.classList.add('current');
      if (m.fen) s.addEventListener('click', () => enterVariation(v.moves, i, ply));
      addComments(line, m.comments);
      for (const sub of m.variations || []) addVariation(line, sub, ply);
    });
  }

  // renderNotes shows, under the moves, what the author wrote at the
  // ply shown: the comments before the first move at the start, else
  // the move's comments and the variations that are alternatives to it.
  function renderNotes() {
    let box = $('game-notes');
    if (!box) {
      box = document.createElement('div');
      box.id = 'game-notes';
      $('game-moves').after(box);
    }
    box.textContent = '';
    const g = game;
    if (gvar) {
      const back = html('button', 'leave-variation', box);
      back.textContent = 'Back to the game';
      back.addEventListener('click', () => { gvar = null; renderGame(); });
    }
    const ply = gvar ? gvar.ply : state.gply;
    const m = ply === 0 ? null : g.moves[ply - 1];
    addComments(box, ply === 0 ? g.comments : m.comments);
    if (m && m.variations && m.variations.length) {
      const h = html('div', 'instead', box);
      h.textContent = 'Instead of ' + m.move + ':';
      for (const v of m.variations) addVariation(box, v, ply);
    }
    box.hidden = box.childNodes.length === 0;
  }

  function renderGame() {
    if (!game) return;
    saveURL();
    const v = variants[game.variant];
    const g = game;
    gameTitle($('game-title'), g, resultLabel(g.result, g.variant));
    $('game-meta').textContent = [g.event, g.date, g.plies + ' plies', '#' + g.id].filter(Boolean).join(' · ');
    if (gvar) {
      // A variation's move: its position, not the game's.
      const vm = gvar.moves[gvar.i];
      if (v) drawBoard($('game-board'), v, parseFEN(vm.fen), { last: [vm.from, vm.to] });
      $('g-ply').textContent = 'variation instead of ply ' + gvar.ply + ': ' + vm.move + noteText(vm);
    } else {
      const fen = state.gply === 0 ? g.start_fen : g.moves[state.gply - 1].fen;
      const last = state.gply === 0 ? [] : [g.moves[state.gply - 1].from, g.moves[state.gply - 1].to];
      if (v) drawBoard($('game-board'), v, parseFEN(fen), { last });
      const cur = state.gply === 0 ? null : g.moves[state.gply - 1];
      let txt = state.gply === 0 ? 'start' : 'ply ' + state.gply + ': ' + cur.move + noteText(cur);
      const e = state.gply === 0 ? g.start_eval : cur.eval;
      if (e !== null && e !== undefined) txt += ', eval ' + fmtEval(e);
      if (cur && cur.class && MARKS[cur.class]) txt += ', ' + cur.class;
      $('g-ply').textContent = txt;
    }
    const mode = v ? labelMode(v) : 'numeric';
    const texts = g.moves.map((m) => (mode === 'algebraic' ? m.algebraic : m.move));
    const startSide = /^\s*b/i.test(g.start_fen) ? 'black' : 'white';
    fillMoveList($('game-moves'), g.variant, texts, startSide, state.gply, (n) => { gvar = null; gameStep(n); }, (li, i) => {
      const m = g.moves[i];
      if (noteText(m)) {
        // The author's marks, apart from the engines' classes below.
        const s = document.createElement('span');
        s.className = 'sym';
        s.textContent = noteText(m);
        li.appendChild(s);
      }
      if ((m.comments && m.comments.length) || (m.variations && m.variations.length)) {
        li.classList.add('noted');
        li.title = (m.comments || []).join(' ') + (m.variations && m.variations.length ? ' (' + m.variations.length + ' variation(s))' : '');
      }
      if (m.class && MARKS[m.class]) {
        const s = document.createElement('span');
        s.className = 'mark mark-' + m.class;
        s.textContent = MARKS[m.class];
        s.title = m.class;
        li.appendChild(s);
      }
      if (m.eval !== null && m.eval !== undefined) {
        const s = document.createElement('span');
        s.className = 'ev';
        s.textContent = fmtEval(m.eval);
        li.appendChild(s);
      }
    });
    scrollToCurrent($('game-moves'));
    renderNotes();
    $('game-pdn').textContent = g.pdn;
    drawEvalGraph();
  }

  // drawEvalGraph draws the open game's evaluations against the plies in
  // the graph's own pixels (so that its text is not stretched): a scale of
  // pawns on the left (the values are capped at ±5), ply numbers below,
  // the ply shown (a line) and, under the pointer, the move there with
  // its evaluation. A click shows that ply.
  const EVAL_CAP = 5;
  function evalGeometry(svg) {
    const W = Math.max(200, Math.round(svg.getBoundingClientRect().width) || 400);
    const H = 100, left = 30, right = 6, top = 6, bottom = 18;
    const n = game ? game.moves.length : 0;
    return {
      W, H, left, right, top, bottom, n,
      x: (i) => left + (n === 0 ? 0 : (i / n) * (W - left - right)),
      y: (e) => top + (H - top - bottom) / 2 * (1 - Math.max(-EVAL_CAP, Math.min(EVAL_CAP, e)) / EVAL_CAP),
      ply: (px) => (n === 0 ? 0 : Math.max(0, Math.min(n, Math.round(((px - left) / (W - left - right)) * n)))),
    };
  }

  function drawEvalGraph() {
    const svg = $('eval-graph');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const g = game;
    const G = evalGeometry(svg);
    const { W, H, n, x, y } = G;
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.removeAttribute('preserveAspectRatio');
    // The scale: +5, 0 and -5 pawns (White's view), and the plies.
    for (const e of [EVAL_CAP, 0, -EVAL_CAP]) {
      el('line', { x1: G.left, y1: y(e), x2: W - G.right, y2: y(e), class: e === 0 ? 'eval-zero' : 'eval-grid' }, svg);
      const t = el('text', { x: G.left - 4, y: y(e) + 4, class: 'eval-axis eval-axis-y', 'text-anchor': 'end' }, svg);
      t.textContent = e > 0 ? '+' + e : String(e);
    }
    const step = n <= 10 ? Math.max(1, Math.ceil(n / 5)) : Math.ceil(n / 6 / 10) * 10;
    for (let i = 0; i <= n; i += step) {
      const t = el('text', { x: x(i), y: H - 4, class: 'eval-axis eval-axis-x', 'text-anchor': 'middle' }, svg);
      t.textContent = String(i);
    }
    const pts = [];
    const evals = [g.start_eval].concat(g.moves.map((m) => m.eval));
    evals.forEach((e, i) => { if (e !== null && e !== undefined) pts.push(x(i).toFixed(1) + ',' + y(e).toFixed(1)); });
    if (pts.length > 1) el('polyline', { points: pts.join(' '), class: 'eval-line' }, svg);
    g.moves.forEach((m, i) => {
      if (m.class === 'blunder' || m.class === 'mistake') {
        el('circle', { cx: x(i + 1), cy: m.eval === null ? y(0) : y(m.eval), r: 3, class: 'eval-blunder' }, svg);
      }
    });
    el('line', { x1: x(state.gply), y1: G.top, x2: x(state.gply), y2: H - G.bottom, class: 'eval-cursor' }, svg);
    if (pts.length === 0) {
      const t = el('text', { x: G.left + 6, y: G.top + 14, class: 'ev' }, svg);
      t.textContent = 'no evaluations (draughtsdb analyze adds them)';
    }
    const hover = el('g', { class: 'eval-hover', visibility: 'hidden' }, svg);
    el('line', { class: 'eval-hover-line', y1: G.top, y2: H - G.bottom }, hover);
    el('text', { class: 'eval-hover-text', y: G.top + 10 }, hover);
  }

  // evalHover shows the move under the pointer at clientX (none: hide).
  function evalHover(clientX) {
    const svg = $('eval-graph');
    const hover = svg.querySelector('.eval-hover');
    if (!hover || !game) return;
    if (clientX === null) {
      hover.setAttribute('visibility', 'hidden');
      return;
    }
    const G = evalGeometry(svg);
    const r = svg.getBoundingClientRect();
    const ply = G.ply((clientX - r.left) * (G.W / r.width));
    const m = ply === 0 ? null : game.moves[ply - 1];
    const e = ply === 0 ? game.start_eval : m.eval;
    let txt = ply === 0 ? 'start' : 'ply ' + ply + ': ' + m.move;
    if (e !== null && e !== undefined) txt += ' ' + fmtEval(e);
    const line = hover.querySelector('line');
    line.setAttribute('x1', G.x(ply));
    line.setAttribute('x2', G.x(ply));
    const t = hover.querySelector('text');
    t.textContent = txt;
    const right = G.x(ply) > G.W / 2;
    t.setAttribute('x', G.x(ply) + (right ? -4 : 4));
    t.setAttribute('text-anchor', right ? 'end' : 'start');
    hover.dataset.ply = String(ply);
    hover.setAttribute('visibility', 'visible');
  }

  function bindEvalGraph() {
    const svg = $('eval-graph');
    svg.addEventListener('pointermove', (ev) => evalHover(ev.clientX));
    svg.addEventListener('pointerleave', () => evalHover(null));
    svg.addEventListener('click', () => {
      const hover = svg.querySelector('.eval-hover');
      if (hover && hover.dataset.ply) { gvar = null; gameStep(parseInt(hover.dataset.ply, 10)); }
    });
    window.addEventListener('resize', () => { if (game) drawEvalGraph(); });
  }

  function exploreGamePosition() {
    if (!game) return;
    const v = variants[game.variant];
    state.variant = game.variant;
    state.fen = v && game.start_fen === v.start_fen ? '' : game.start_fen;
    state.moves = game.moves.map((m) => m.move);
    state.ply = state.gply;
    selected = 0;
    $('variant').value = state.variant;
    refresh();
  }

  // ---- refresh ----
  // refresh shows the state: the position, its tree and its games.
  // body[data-busy] is 1 while it works (the browser test waits on it).
  async function refresh() {
    const my = ++seq;
    document.body.dataset.busy = '1';
    try {
      await show(my);
    } finally {
      if (my === seq) document.body.dataset.busy = '0';
    }
  }

  async function show(my) {
    saveURL();
    $('chooser').hidden = true;
    status('loading…');
    let position, tree;
    try {
      [position, tree] = await Promise.all([
        api('/api/position', posParams()),
        api('/api/openings', { ...posParams(), ...filterParams(), ...sourceParams() }),
      ]);
    } catch (e) {
      if (my === seq) status(e.message, true);
      return;
    }
    if (my !== seq) return;
    pos = position;
    // Keep the line in the variant's notation, as the server wrote it.
    pos.line.forEach((m, i) => { state.moves[i] = m.move; });
    saveURL();
    renderBoard();
    renderLine();
    renderTree(tree);
    updateDownloads();
    try {
      await loadGames(true);
    } catch (e) {
      if (my === seq) status(e.message, true);
      return;
    }
    if (my === seq) status('');
  }

  // ---- controls ----
  function fillFilters() {
    for (const k of FILTERS) $(k).value = state.filters[k];
  }

  let playerTimer = 0;
  function suggestPlayers() {
    clearTimeout(playerTimer);
    playerTimer = setTimeout(async () => {
      const prefix = $('player').value.trim();
      if (prefix.length < 1) return;
      try {
        const ans = await api('/api/players', { prefix, limit: 20 });
        const dl = $('players');
        dl.textContent = '';
        for (const p of ans.players) {
          const o = document.createElement('option');
          o.value = p.name;
          o.label = p.games + ' games';
          dl.appendChild(o);
        }
      } catch (e) { /* completion is a convenience */ }
    }, 200);
  }

  function bind() {
    $('variant').addEventListener('change', () => {
      state.variant = $('variant').value;
      state.fen = '';
      state.moves = [];
      state.ply = 0;
      selected = 0;
      refresh();
    });
    $('labels').addEventListener('change', () => { state.labels = $('labels').value; saveURL(); renderBoard(); renderGame(); refresh(); });
    $('flip').addEventListener('click', () => { state.flip = !state.flip; saveURL(); renderBoard(); renderGame(); });
    $('start').addEventListener('click', () => goPly(0));
    $('back').addEventListener('click', () => goPly(state.ply - 1));
    $('forward').addEventListener('click', () => goPly(state.ply + 1));
    $('end').addEventListener('click', () => goPly(state.moves.length));
    $('fen-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const v = variants[state.variant];
      const f = $('fen').value.trim();
      state.fen = v && f === v.start_fen ? '' : f;
      state.moves = [];
      state.ply = 0;
      selected = 0;
      refresh();
    });
    $('fen-reset').addEventListener('click', () => {
      state.fen = '';
      state.moves = [];
      state.ply = 0;
      refresh();
    });
    $('filters').addEventListener('submit', (ev) => {
      ev.preventDefault();
      for (const k of FILTERS) state.filters[k] = $(k).value.trim();
      refresh();
    });
    $('clear').addEventListener('click', () => {
      for (const k of FILTERS) state.filters[k] = '';
      fillFilters();
      refresh();
    });
    $('player').addEventListener('input', suggestPlayers);
    $('more').addEventListener('click', () => loadGames(false).catch((e) => status(e.message, true)));
    $('close-game').addEventListener('click', closeGame);
    $('g-start').addEventListener('click', () => gameStep(0));
    $('g-back').addEventListener('click', () => gameStep(state.gply - 1));
    $('g-forward').addEventListener('click', () => gameStep(state.gply + 1));
    $('g-end').addEventListener('click', () => gameStep(game ? game.moves.length : 0));
    $('g-explore').addEventListener('click', exploreGamePosition);
    bindEvalGraph();
    const board = $('board');
    board.addEventListener('pointerdown', onPointerDown);
    board.addEventListener('pointermove', onPointerMove);
    board.addEventListener('pointerup', onPointerUp);
    board.addEventListener('pointercancel', () => { if (drag) { drag.ghost.remove(); drag = null; } });
    document.addEventListener('keydown', (ev) => {
      const t = ev.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      const inGame = !!game;
      switch (ev.key) {
        case 'ArrowLeft': inGame ? gameStep(state.gply - 1) : goPly(state.ply - 1); break;
        case 'ArrowRight': inGame ? gameStep(state.gply + 1) : goPly(state.ply + 1); break;
        case 'Home': inGame ? gameStep(0) : goPly(0); break;
        case 'End': inGame ? gameStep(game.moves.length) : goPly(state.moves.length); break;
        case 'Escape': if (inGame) closeGame(); else { selected = 0; renderBoard(); } break;
        default: return;
      }
      ev.preventDefault();
    });
    window.addEventListener('popstate', () => { fromURL(); start(); });
  }

  async function start() {
    if (!state.variant || !variants[state.variant]) {
      // The variant with the most games, else the server's default.
      let best = defaultVariant, most = -1;
      for (const v of Object.values(variants)) if (v.games > most) { best = v.name; most = v.games; }
      state.variant = most > 0 ? best : defaultVariant;
    }
    $('variant').value = state.variant;
    $('labels').value = state.labels;
    fillFilters();
    fillSources();
    await refresh();
    if (state.game) await openGame(state.game, state.gply);
  }

  async function init() {
    fromURL();
    bind();
    bindSources();
    try {
      const ans = await api('/api/variants');
      defaultVariant = ans.default;
      const sel = $('variant');
      for (const v of ans.variants) {
        variants[v.name] = v;
        const o = document.createElement('option');
        o.value = v.name;
        o.textContent = v.name + (v.games ? ' (' + v.games + ')' : '');
        sel.appendChild(o);
      }
    } catch (e) {
      status(e.message, true);
      return;
    }
    await start();
    document.body.dataset.ready = '1';
  }

  init();
})();
