// draughtsdb explorer: the player page (player.html). Plain JS, no build
// step; everything comes from /api/player and /api/players (see the
// README's Explorer section). The URL holds the state: name, variant and
// the line of each opening tree (wm, bm), so a link shows the same page.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  // The pieces both pages draw alike (common.js).
  const { td, pct, bar, playerLink, gameRow } = draughtsdb;
  const state = { name: '', search: '', variant: '', wm: [], bm: [] };
  let seq = 0;           // answers of older requests are dropped
  let before = 0;        // the next page of games
  let player = null;     // the last /api/player answer
  let firstMovers = {};  // variant -> the side that moves first

  // api asks path with params; an empty value is left out, but for the
  // keys in keep (search= with nothing is every player, not the old
  // prefix completion).
  async function api(path, params, keep) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) {
      if ((v !== '' || (keep || []).includes(k)) && v !== undefined && v !== null) q.set(k, v);
    }
    const resp = await fetch(path + '?' + q.toString());
    let body;
    try { body = await resp.json(); } catch (e) { body = { error: 'the server answered ' + resp.status }; }
    if (!resp.ok) throw new Error(body.error || resp.statusText);
    return body;
  }

  function status(msg, isError) {
    const el = $('pl-status');
    el.textContent = msg || '';
    el.classList.toggle('error', !!isError);
  }

  function fromURL() {
    const q = new URLSearchParams(location.search);
    state.name = q.get('name') || '';
    state.search = q.get('search') || '';
    state.variant = q.get('variant') || '';
    state.wm = (q.get('wm') || '').split(/[\s,]+/).filter(Boolean);
    state.bm = (q.get('bm') || '').split(/[\s,]+/).filter(Boolean);
  }

  function toURL() {
    const q = new URLSearchParams();
    if (state.name) q.set('name', state.name);
    else if (state.search) q.set('search', state.search);
    if (state.name && state.variant) q.set('variant', state.variant);
    if (state.name && state.wm.length) q.set('wm', state.wm.join(' '));
    if (state.name && state.bm.length) q.set('bm', state.bm.join(' '));
    return '?' + q.toString();
  }

  function saveURL(push) {
    const u = toURL();
    if (u === location.search) return;
    if (push) history.pushState(null, '', u);
    else history.replaceState(null, '', u);
  }

  function recordRows(body, rows, label) {
    body.textContent = '';
    for (const r of rows) {
      const tr = document.createElement('tr');
      td(tr, label ? label(r) : r.scope);
      td(tr, String(r.games), 'num');
      td(tr, String(r.wins), 'num');
      td(tr, String(r.draws), 'num');
      td(tr, String(r.losses), 'num');
      td(tr, pct(r.score), 'num');
      body.appendChild(tr);
    }
  }

  // ---- the list ----
  async function showList() {
    const my = ++seq;
    $('pl-player').hidden = true;
    $('pl-list').hidden = false;
    $('pl-search').value = state.search;
    status('loading…');
    let ans;
    try {
      ans = await api('/api/players', { search: state.search, limit: 50 }, ['search']);
    } catch (e) {
      if (my === seq) status(e.message, true);
      return;
    }
    if (my !== seq) return;
    const body = $('pl-players').tBodies[0];
    body.textContent = '';
    for (const p of ans.players) {
      const tr = document.createElement('tr');
      tr.dataset.name = p.name;
      td(tr, playerLink(p.name));
      td(tr, p.aliases.join('; '));
      td(tr, String(p.games), 'num');
      td(tr, String(p.wins), 'num');
      td(tr, String(p.draws), 'num');
      td(tr, String(p.losses), 'num');
      td(tr, pct(p.score), 'num');
      td(tr, p.first ? (p.first === p.last ? p.first : p.first + '–' + p.last) : '');
      td(tr, p.rating === null || p.rating === undefined ? '' : String(p.rating), 'num');
      body.appendChild(tr);
    }
    const shown = ans.players.length;
    $('pl-list-head').textContent = state.search
      ? `${ans.total} player(s) with a spelling holding “${state.search}”` + (shown < ans.total ? `, the ${shown} with the most games` : '')
      : `${ans.total} players` + (shown < ans.total ? `, the ${shown} with the most games` : '');
    status('');
  }

  // ---- a player ----
  function params() {
    return { name: state.name, variant: state.variant, white_moves: state.wm.join(' '), black_moves: state.bm.join(' ') };
  }

  async function showPlayer() {
    const my = ++seq;
    $('pl-list').hidden = true;
    status('loading…');
    let ans;
    try {
      ans = await api('/api/player', params());
    } catch (e) {
      if (my === seq) status(e.message, true);
      return;
    }
    if (my !== seq) return;
    player = ans;
    $('pl-player').hidden = false;
    document.title = ans.name + ' – draughtsdb players';
    $('pl-name').textContent = ans.name;
    const al = $('pl-aliases');
    al.textContent = '';
    if (ans.aliases.length) al.appendChild(document.createTextNode('Also written: ' + ans.aliases.join('; ')));
    for (const w of ans.why) {
      const s = document.createElement('span');
      s.className = 'why';
      s.textContent = 'joined: ' + w;
      al.appendChild(s);
    }
    if (ans.candidates.length) {
      const s = document.createElement('span');
      s.className = 'why';
      s.appendChild(document.createTextNode('possibly also (not joined): '));
      ans.candidates.forEach((c, i) => {
        if (i) s.appendChild(document.createTextNode('; '));
        s.appendChild(playerLink(c));
      });
      al.appendChild(s);
    }
    recordRows($('pl-record').tBodies[0], [ans.all, ans.white, ans.black]);
    recordRows($('pl-years').tBodies[0], ans.years);
    renderRatings(ans);
    recordRows($('pl-opponents').tBodies[0], ans.opponents.slice(0, 30), (r) => (r.scope === '?' ? '?' : playerLink(r.scope)));
    const sel = $('pl-variant');
    sel.textContent = '';
    for (const v of ans.variants) {
      const o = document.createElement('option');
      o.value = v.variant;
      o.textContent = v.variant + ' (' + v.games + ')';
      sel.appendChild(o);
    }
    sel.value = ans.variant;
    $('pl-variant-row').hidden = ans.variants.length < 2;
    state.variant = ans.variants.length && ans.variant === ans.variants[0].variant ? '' : ans.variant;
    // Keep the lines as the server wrote them (the variant's notation).
    state.wm = ans.white_tree.line.slice();
    state.bm = ans.black_tree.line.slice();
    saveURL(false);
    renderTree($('pl-tree-white'), ans.white_tree, 'wm');
    renderTree($('pl-tree-black'), ans.black_tree, 'bm');
    const body = $('pl-games').tBodies[0];
    body.textContent = '';
    addGames(ans.games, ans.next_before);
    status('');
  }

  // renderRatings shows the latest rating and the rating per year (none
  // when no game of theirs gives one).
  function renderRatings(ans) {
    const box = $('pl-rating-box');
    box.hidden = ans.rating === null || ans.rating === undefined;
    if (box.hidden) return;
    $('pl-rating').textContent = 'Latest ' + ans.rating + (ans.rating_date ? ' (game of ' + ans.rating_date + ')' : '');
    const body = $('pl-ratings').tBodies[0];
    body.textContent = '';
    for (const y of ans.ratings || []) {
      const tr = document.createElement('tr');
      td(tr, y.year);
      td(tr, String(y.games), 'num');
      td(tr, String(y.min), 'num');
      td(tr, String(y.max), 'num');
      td(tr, String(y.last), 'num');
      body.appendChild(tr);
    }
  }

  // renderTree shows a tree: its line (a move goes back there) and the
  // moves from its position (a row plays its move).
  function renderTree(box, tree, key) {
    const line = box.querySelector('.pl-line');
    line.textContent = '';
    const start = document.createElement('li');
    start.className = 'start';
    start.textContent = 'start';
    start.dataset.ply = '0';
    start.addEventListener('click', () => goLine(key, 0));
    line.appendChild(start);
    tree.line.forEach((m, i) => {
      const li = document.createElement('li');
      li.textContent = m;
      li.dataset.ply = String(i + 1);
      li.addEventListener('click', () => goLine(key, i + 1));
      line.appendChild(li);
    });
    let head = `${tree.games} game(s) as ${tree.color} reach this position`;
    if (tree.ended) head += `, ${tree.ended} end here`;
    if (tree.truncated) head += ' (counted over the newest games only)';
    if (tree.name) head = tree.name + ' · ' + head;
    box.querySelector('.pl-tree-head').textContent = head;
    const body = box.querySelector('tbody');
    body.textContent = '';
    for (const m of tree.moves) {
      const tr = document.createElement('tr');
      tr.dataset.move = m.move;
      tr.title = m.algebraic === m.move ? m.move : m.move + ' (' + m.algebraic + ')';
      td(tr, m.move, 'move');
      td(tr, String(m.games), 'num games');
      td(tr, bar(m.white_wins, m.draws, m.black_wins));
      td(tr, pct(m.player_score), 'num');
      td(tr, m.name || '');
      tr.addEventListener('click', () => { state[key] = state[key].concat([m.move]); saveURL(true); showPlayer(); });
      body.appendChild(tr);
    }
    if (tree.moves.length === 0) {
      const tr = document.createElement('tr');
      td(tr, 'No game of theirs as ' + tree.color + ' went on from here.').colSpan = 5;
      body.appendChild(tr);
    }
  }

  function goLine(key, n) {
    state[key] = state[key].slice(0, n);
    saveURL(true);
    showPlayer();
  }

  function gameHref(g) {
    return './?variant=' + encodeURIComponent(g.variant) + '&game=' + g.id;
  }

  function addGames(games, next) {
    const body = $('pl-games').tBodies[0];
    for (const g of games) {
      // The game opens in the explorer's game viewer.
      body.appendChild(gameRow(g, firstMovers[g.variant] || 'white', () => { location.href = gameHref(g); }));
    }
    before = next || 0;
    $('pl-more').hidden = !before;
  }

  async function moreGames() {
    if (!before) return;
    try {
      const ans = await api('/api/player', { ...params(), before });
      addGames(ans.games, ans.next_before);
    } catch (e) {
      status(e.message, true);
    }
  }

  async function show() {
    document.body.dataset.busy = '1';
    try {
      if (state.name) await showPlayer();
      else await showList();
    } finally {
      document.body.dataset.busy = '0';
    }
  }

  function bind() {
    $('pl-search-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      state.search = $('pl-search').value.trim();
      state.name = '';
      state.variant = '';
      state.wm = [];
      state.bm = [];
      saveURL(true);
      show();
    });
    $('pl-variant').addEventListener('change', () => {
      state.variant = $('pl-variant').value;
      state.wm = [];
      state.bm = [];
      saveURL(true);
      show();
    });
    $('pl-more').addEventListener('click', moreGames);
    window.addEventListener('popstate', () => { fromURL(); show(); });
  }

  async function init() {
    fromURL();
    bind();
    try {
      const ans = await api('/api/variants');
      for (const v of ans.variants) firstMovers[v.name] = v.first_to_move;
    } catch (e) { /* the results then read as White's first */ }
    try {
      await show();
    } catch (e) {
      status(e.message, true);
    }
    document.body.dataset.ready = '1';
  }

  init();
})();
