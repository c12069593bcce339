// draughtsdb explorer: what the explorer (app.js) and the player page
// (player.js) both draw, written once so that the two pages show a
// result bar, a player's name or a row of a games list alike. Plain JS, no
// build step: each page loads this script before its own, which reads
// these functions from the global draughtsdb.
'use strict';
const draughtsdb = (() => {
  // td appends a cell holding content (a node, or text) to tr.
  function td(tr, content, cls) {
    const c = document.createElement('td');
    if (content instanceof Node) c.appendChild(content);
    else c.textContent = content;
    if (cls) c.className = cls;
    tr.appendChild(c);
    return c;
  }

  // pct writes a score in percent, "" for none (null: no game finished).
  function pct(s) { return s === null || s === undefined ? '' : s.toFixed(1) + '%'; }

  // bar draws White's wins, the draws and Black's wins as shares of one
  // bar, each labelled with its percentage where it is wide enough.
  function bar(w, d, b) {
    const div = document.createElement('div');
    div.className = 'bar';
    const n = w + d + b;
    if (n === 0) {
      div.classList.add('empty');
      div.title = 'no game with a result';
      return div;
    }
    for (const [cls, c, name] of [['w', w, 'White wins'], ['d', d, 'draws'], ['b', b, 'Black wins']]) {
      const s = document.createElement('span');
      s.className = cls;
      const p = (100 * c) / n;
      s.style.width = p + '%';
      if (p >= 14) s.textContent = Math.round(p) + '%';
      s.title = c + ' ' + name;
      div.appendChild(s);
    }
    return div;
  }

  // playerLink is a link to the player page of name (any spelling: the
  // page finds the player), or "?" for no name. Inside a clickable row it
  // opens the player, not the row's game.
  function playerLink(name) {
    if (!name) return document.createTextNode('?');
    const a = document.createElement('a');
    a.className = 'player';
    a.href = 'player.html?name=' + encodeURIComponent(name);
    a.textContent = name;
    a.addEventListener('click', (ev) => ev.stopPropagation());
    return a;
  }

  // resultLabel writes a result with its winner by colour: the first
  // number of a PDN result is the first mover's (first: "white" or
  // "black"), so English "0-1" under White | Black columns reads as a
  // Black win when White won.
  function resultLabel(result, first) {
    const m = /^(\d+(?:\/\d+)?)-(\d+(?:\/\d+)?)$/.exec(result || '');
    if (!m) return result || '';
    const num = (x) => x.includes('/') ? Number(x.split('/')[0]) / Number(x.split('/')[1]) : Number(x);
    const a = num(m[1]), b = num(m[2]);
    if (a === b) return result + (a === 0 ? ' (both lose)' : ' (draw)');
    const second = first === 'white' ? 'black' : 'white';
    return result + ' (' + (a > b ? first : second) + ' wins)';
  }

  // gameRow is the row of a games list for g (an /api/games or
  // /api/player game): White, Black, the result (first: the first mover
  // of g's variant), date, event and plies; onOpen runs on a click.
  function gameRow(g, first, onOpen) {
    const tr = document.createElement('tr');
    tr.dataset.game = String(g.id);
    td(tr, playerLink(g.white));
    td(tr, playerLink(g.black));
    td(tr, resultLabel(g.result, first), 'result');
    td(tr, g.date, 'date');
    td(tr, g.event || '', 'event');
    td(tr, String(g.plies), 'num');
    tr.addEventListener('click', onOpen);
    return tr;
  }

  return Object.freeze({ td, pct, bar, playerLink, resultLabel, gameRow });
})();
