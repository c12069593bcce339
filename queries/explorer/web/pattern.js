// draughtsdb explorer: the pattern search page. A partial position is drawn
// on the board (each click cycles a square through white man, black man,
// white king, black king, empty and any), kept in the pattern text
// (W:W28,K46:B19:E23, the form draughtsdb search reads), and searched with
// /api/pattern; a game found opens in the explorer at its matching ply.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = 'http://www.w3.org/2000/svg';
  const S = 60;
  const CYCLE = ['any', 'wm', 'bm', 'wk', 'bk', 'empty'];
  let variants = {};
  let v = null;
  let marks = {}; // square -> one of CYCLE but 'any'

  async function api(path, params) {
    const q = new URLSearchParams();
    for (const [k, val] of Object.entries(params || {})) if (val !== '' && val !== undefined) q.set(k, val);
    const resp = await fetch(path + '?' + q.toString());
    let body;
    try { body = await resp.json(); } catch (e) { body = { error: 'the server answered ' + resp.status }; }
    if (!resp.ok) throw new Error(body.error || resp.statusText);
    return body;
  }

  function status(msg, isError) {
    $('p-status').textContent = msg || '';
    $('p-status').classList.toggle('error', !!isError);
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, val] of Object.entries(attrs || {})) e.setAttribute(k, val);
    if (parent) parent.appendChild(e);
    return e;
  }

  function squareXY(s) {
    const sq = v.squares[s - 1];
    if (v.bottom === 'black') return [(v.board.width - sq.file) * S, (sq.rank - 1) * S];
    return [(sq.file - 1) * S, (v.board.height - sq.rank) * S];
  }

  function draw() {
    const svg = $('p-board');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute('viewBox', `0 0 ${v.board.width * S} ${v.board.height * S}`);
    el('rect', { x: 0, y: 0, width: v.board.width * S, height: v.board.height * S, class: 'sq-light' }, svg);
    for (const sq of v.squares) {
      const [x, y] = squareXY(sq.n);
      const m = marks[sq.n] || 'any';
      el('rect', { x, y, width: S, height: S, class: m === 'empty' ? 'sq sq-last' : 'sq sq-dark', 'data-sq': sq.n, 'data-mark': m }, svg);
      const t = el('text', { x: x + 3, y: y + 14, class: 'label' }, svg);
      t.textContent = v.notation === 'algebraic' ? sq.algebraic : sq.numeric;
      if (m === 'wm' || m === 'bm' || m === 'wk' || m === 'bk') {
        const color = m[0] === 'w' ? 'white' : 'black';
        const g = el('g', { class: 'piece' }, svg);
        el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.4, class: 'piece-' + color }, g);
        if (m[1] === 'k') {
          const cx = x + S / 2, cy = y + S / 2;
          el('path', {
            d: `M${cx - 13} ${cy + 7} L${cx - 15} ${cy - 7} L${cx - 6} ${cy} L${cx} ${cy - 11} L${cx + 6} ${cy} L${cx + 15} ${cy - 7} L${cx + 13} ${cy + 7} Z`,
            class: 'crown-' + color,
          }, g);
        }
      }
    }
  }

  // The pattern text of the marks, and back.
  function toText() {
    const w = [], b = [], e = [];
    for (const sq of Object.keys(marks).map(Number).sort((x, y) => x - y)) {
      const m = marks[sq];
      if (m === 'wm') w.push(String(sq));
      if (m === 'wk') w.push('K' + sq);
      if (m === 'bm') b.push(String(sq));
      if (m === 'bk') b.push('K' + sq);
      if (m === 'empty') e.push(String(sq));
    }
    if (!w.length && !b.length && !e.length) return '';
    return 'W' + w.join(',') + ':B' + b.join(',') + (e.length ? ':E' + e.join(',') : '');
  }

  function fromText(text) {
    marks = {};
    for (const part of text.split(':')) {
      const c = part.trim()[0];
      if (c !== 'W' && c !== 'B' && c !== 'E') continue;
      for (let tok of part.trim().slice(1).split(',')) {
        tok = tok.trim();
        if (!tok) continue;
        let king = false;
        if (tok[0] === 'K') { king = true; tok = tok.slice(1); }
        const [a, z] = tok.split('-').map((x) => parseInt(x, 10));
        for (let s = a; s <= (z || a); s++) {
          if (!(s >= 1 && s <= v.squares.length)) continue;
          marks[s] = c === 'E' ? 'empty' : (c === 'W' ? 'w' : 'b') + (king ? 'k' : 'm');
        }
      }
    }
  }

  function onClick(ev) {
    const r = ev.target.closest('rect[data-sq]');
    if (!r) return;
    const sq = Number(r.dataset.sq);
    const next = CYCLE[(CYCLE.indexOf(marks[sq] || 'any') + 1) % CYCLE.length];
    if (next === 'any') delete marks[sq]; else marks[sq] = next;
    $('p-text').value = toText();
    draw();
  }

  function td(tr, text, cls) {
    const c = document.createElement('td');
    c.textContent = text;
    if (cls) c.className = cls;
    tr.appendChild(c);
    return c;
  }

  async function search(ev) {
    if (ev) ev.preventDefault();
    document.body.dataset.busy = '1';
    status('searching…');
    const body = $('p-games').tBodies[0];
    try {
      const res = await api('/api/pattern', {
        variant: v.name, pattern: $('p-text').value.trim(), reversed: $('p-reversed').checked ? '1' : '',
        side: $('p-side').value, material: $('p-material').value.trim(), plies: $('p-plies').value.trim(),
        move: $('p-move').value.trim(), limit: '100',
      });
      $('p-summary').textContent = `${res.games} games, ${res.positions} positions (of ${res.games_scanned} games searched)` +
        (res.games_unindexed ? `; ${res.games_unindexed} games not indexed (draughtsdb search --rebuild-index)` : '');
      body.replaceChildren();
      for (const m of res.matches) {
        const tr = document.createElement('tr');
        tr.dataset.game = String(m.game_id);
        tr.dataset.ply = String(m.ply);
        td(tr, '#' + m.game_id, 'num');
        td(tr, m.white || '?');
        td(tr, m.black || '?');
        td(tr, m.result);
        td(tr, m.date);
        td(tr, m.event);
        td(tr, String(m.ply), 'num');
        td(tr, (m.move ? m.move + ' ' : '') + (m.reversed ? 'colour-reversed' : ''));
        tr.addEventListener('click', () => {
          location.href = './?' + new URLSearchParams({ variant: v.name, game: String(m.game_id), gply: String(m.ply) }).toString();
        });
        body.appendChild(tr);
      }
      status('');
    } catch (e) {
      status(e.message, true);
    } finally {
      document.body.dataset.busy = '0';
    }
  }

  function setVariant(name) {
    v = variants[name];
    marks = {};
    $('p-text').value = '';
    draw();
  }

  async function init() {
    document.body.dataset.ready = '0';
    document.body.dataset.busy = '0';
    try {
      const vs = await api('/api/variants');
      const sel = $('p-variant');
      for (const x of vs.variants) {
        variants[x.name] = x;
        const o = document.createElement('option');
        o.value = o.textContent = x.name;
        sel.appendChild(o);
      }
      const q = new URLSearchParams(location.search);
      const name = variants[q.get('variant')] ? q.get('variant') : vs.default;
      sel.value = name;
      setVariant(name);
    } catch (e) {
      status(e.message, true);
    }
    $('p-variant').addEventListener('change', () => setVariant($('p-variant').value));
    $('p-board').addEventListener('click', onClick);
    $('p-text').addEventListener('change', () => { fromText($('p-text').value); draw(); });
    $('p-form').addEventListener('submit', search);
    $('p-clear').addEventListener('click', () => setVariant(v.name));
    document.body.dataset.ready = '1';
  }
  init();
})();
