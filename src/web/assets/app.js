// damas web: the page. It holds the game (start position, the move tree with its
// variations and comments, the tags) and asks the server, for each position, the
// legal moves, the FEN and the outcome; the engine's searches come over one WebSocket.
'use strict';

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// ---------------------------------------------------------------- server (HTTP)

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    throw new Error((data && data.error) || `${path}: ${response.status} ${response.statusText}`);
  }
  return data;
}

// Answers per position (and notation), asked once each.
const positionCache = new Map();
const bookCache = new Map();

function lineKey(line) {
  return `${line.variant}|${line.start || ''}|${line.moves.join(' ')}`;
}

function fetchPosition(line) {
  const key = `${lineKey(line)}|${state.notation}`;
  if (!positionCache.has(key)) {
    const request = api('/api/position', { ...line, notation: state.notation });
    request.catch(() => positionCache.delete(key));
    positionCache.set(key, request);
  }
  return positionCache.get(key);
}

function fetchBook(line) {
  const key = lineKey(line);
  if (!bookCache.has(key)) {
    const request = api('/api/book', line);
    request.catch(() => bookCache.delete(key));
    bookCache.set(key, request);
  }
  return bookCache.get(key);
}

// ---------------------------------------------------------------- the game tree

// A move of the tree: the position after it is its line from the root.
class MoveNode {
  constructor(parent, id, text) {
    this.parent = parent;
    this.id = id;
    this.text = text || id;
    this.comment = null;
    this.children = [];
  }
  get ply() {
    let n = 0;
    for (let node = this; node.parent; node = node.parent) n += 1;
    return n;
  }
  // The child indices from the root: the move's `data-path`.
  get path() {
    const path = [];
    for (let node = this; node.parent; node = node.parent) {
      path.unshift(node.parent.children.indexOf(node));
    }
    return path;
  }
  get ids() {
    const ids = [];
    for (let node = this; node.parent; node = node.parent) ids.unshift(node.id);
    return ids;
  }
  child(id) {
    return this.children.find((c) => c.id === id);
  }
  // Whether the node lies on the main line (first children from the root).
  get onMainLine() {
    for (let node = this; node.parent; node = node.parent) {
      if (node.parent.children[0] !== node) return false;
    }
    return true;
  }
}

let gamesMade = 0;
function newGame(variant, start, tags) {
  gamesMade += 1;
  return { number: gamesMade, variant, start: start || null, root: new MoveNode(null, null, null), tags: tags || [], result: null };
}

function lineOf(node) {
  return { variant: state.game.variant, start: state.game.start, moves: node.ids };
}

function nodeAtPath(path) {
  let node = state.game.root;
  for (const index of path) {
    node = node.children[index];
    if (!node) return null;
  }
  return node;
}

function mainLineEnd(node) {
  while (node.children.length) node = node.children[0];
  return node;
}

function mainLineNodes() {
  const nodes = [];
  for (let node = state.game.root; node.children.length; ) {
    node = node.children[0];
    nodes.push(node);
  }
  return nodes;
}

// Adds the line of `ids` under `node` (the moves as their ids), returning its end.
function addLine(node, ids, texts) {
  ids.forEach((id, i) => {
    let next = node.child(id);
    if (!next) {
      next = new MoveNode(node, id, texts ? texts[i] : id);
      node.children.push(next);
    }
    node = next;
  });
  return node;
}

// The PDN reader's tree (`[{id, text, comment, variations: [tree…]}]`) under `parent`.
function treeFromPdn(parent, lineTree) {
  let node = parent;
  for (const item of lineTree) {
    const child = new MoveNode(node, item.id, item.text);
    child.comment = item.comment || null;
    node.children.push(child);
    for (const variation of item.variations || []) treeFromPdn(node, variation);
    node = child;
  }
}

// The tree under `first`'s parent in the PDN shape: `first` and its main continuation;
// alternatives to a node's move are listed on that node.
function treeToPdn(first, withSiblings) {
  const line = [];
  let node = first;
  let alternatives = withSiblings ? first.parent.children.slice(1) : [];
  while (node) {
    line.push({
      id: node.id,
      text: node.text,
      comment: node.comment,
      variations: alternatives.map((alt) => treeToPdn(alt, false)),
    });
    alternatives = node.children.slice(1);
    node = node.children[0];
  }
  return line;
}

// Move texts in the chosen notation: each leaf's line asked once.
async function relabel() {
  const leaves = [];
  const walk = (node) => {
    if (!node.children.length) leaves.push(node);
    node.children.forEach(walk);
  };
  walk(state.game.root);
  await Promise.all(leaves.map(async (leaf) => {
    if (!leaf.parent) return;
    const position = await fetchPosition(lineOf(leaf));
    let node = leaf;
    for (let i = position.moves.length - 1; i >= 0 && node.parent; i -= 1) {
      node.text = position.moves[i].text;
      node.number = position.moves[i].number;
      node = node.parent;
    }
  }));
}

// ---------------------------------------------------------------- state

const state = {
  setup: null,
  mode: 'play',
  notation: 'algebraic',
  flipped: false,
  game: null,
  current: null,
  position: null, // the server's answer for the current node
  lastMove: null, // the legal-move record that led to the current node
  selected: null, // the square of the piece picked
  choosing: null, // an ambiguous capture: its candidate moves
  startWhite: true,
  play: { user: 'white', strength: 10, time: '', over: null, lastScore: null, clocks: null, thinking: null },
  analysis: { running: false, job: null, best: null },
  review: null,
  showToken: 0,
};

// ---------------------------------------------------------------- WebSocket

const socket = {
  ws: null,
  queue: [],
  nextId: 1,
  handlers: new Map(),
  connect() {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
    this.ws = ws;
    ws.addEventListener('open', () => {
      for (const message of this.queue.splice(0)) ws.send(JSON.stringify(message));
      if (this.reconnecting) resumeJobs();
      this.reconnecting = false;
    });
    ws.addEventListener('message', (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      const handler = this.handlers.get(message.id);
      if (handler) handler(message);
      else if (message.type === 'error') notice(message.message);
    });
    ws.addEventListener('close', () => {
      this.ws = null;
      for (const handler of this.handlers.values()) handler({ type: 'closed' });
      this.handlers.clear();
      this.reconnecting = true;
      setTimeout(() => this.connect(), 1000);
    });
  },
  // Sends a job; its answers go to `handler` until `forget(id)`.
  send(message, handler) {
    const id = this.nextId++;
    this.handlers.set(id, handler);
    this.post({ ...message, id });
    return id;
  },
  post(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else this.queue.push(message);
  },
  forget(id) {
    this.handlers.delete(id);
  },
  stop() {
    this.post({ type: 'stop' });
  },
};

// ---------------------------------------------------------------- board

const board = {
  cells: new Map(), // square number -> element

  build() {
    const root = $('#board');
    root.textContent = '';
    this.cells.clear();
    const dark = new Map();
    state.setup.dark_squares.forEach(([file, rank], i) => dark.set(`${file},${rank}`, i + 1));
    for (let row = 0; row < 8; row += 1) {
      for (let col = 0; col < 8; col += 1) {
        const file = state.flipped ? 7 - col : col;
        const rank = state.flipped ? row : 7 - row;
        const square = dark.get(`${file},${rank}`);
        const cell = el('div', { class: square ? 'sq dark' : 'sq light' });
        if (square) {
          cell.dataset.square = square;
          this.cells.set(square, cell);
        }
        if (col === 0) cell.append(el('span', { class: 'coord rank', text: String(rank + 1) }));
        if (row === 7) cell.append(el('span', { class: 'coord file', text: 'abcdefgh'[file] }));
        if (square) cell.append(el('span', { class: 'coord num', text: String(square) }));
        root.append(cell);
      }
    }
    root.classList.toggle('numeric', state.notation === 'numeric');
  },

  draw() {
    const position = state.position;
    if (!position) return;
    const targets = new Set();
    const capturable = new Set();
    if (state.choosing) {
      for (const move of state.choosing) {
        targets.add(move.to);
        move.captured.forEach((s) => capturable.add(s));
      }
    } else if (state.selected != null) {
      for (const move of position.legal) if (move.from === state.selected) targets.add(move.to);
    }
    const must = new Set(position.must_capture || []);
    const movable = canMove() ? new Set(position.legal.map((m) => m.from)) : new Set();
    const last = state.lastMove;
    for (const [square, cell] of this.cells) {
      const code = position.board[square - 1];
      const old = cell.querySelector('.piece');
      if (old) old.remove();
      if (code) {
        const classes = ['piece', code.toLowerCase() === 'w' ? 'white' : 'black'];
        if (code === 'W' || code === 'B') classes.push('king');
        cell.append(el('div', { class: classes.join(' ') }));
      }
      cell.classList.toggle('selected', square === state.selected);
      cell.classList.toggle('target', targets.has(square));
      cell.classList.toggle('capturable', capturable.has(square));
      cell.classList.toggle('must-capture', must.has(square) && movable.has(square));
      cell.classList.toggle('movable', movable.has(square));
      cell.classList.toggle('last', !!last && (last.from === square || last.to === square));
    }
    drawArrows();
  },
};

function squareCenter(square) {
  const [file, rank] = state.setup.dark_squares[square - 1];
  const col = state.flipped ? 7 - file : file;
  const row = state.flipped ? rank : 7 - rank;
  return [col + 0.5, row + 0.5];
}

// The engine's best move as an arrow along its path.
function drawArrows() {
  const layer = $('#arrows');
  layer.textContent = '';
  if (state.choosing) {
    // The routes of an ambiguous capture, to tell them apart.
    for (const move of state.choosing) {
      layer.append(svg('polyline', {
        class: 'arrow choice',
        points: move.path.map(squareCenter).map(([x, y]) => `${x},${y}`).join(' '),
      }));
    }
    return;
  }
  const best = state.mode === 'analysis' && state.analysis.running ? state.analysis.best : null;
  if (!best || !state.position) return;
  const move = state.position.legal.find((m) => m.id === best);
  if (!move) return;
  const defs = svg('defs');
  const marker = svg('marker', { id: 'head', viewBox: '0 0 10 10', refX: '5', refY: '5', markerWidth: '3', markerHeight: '3', orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }));
  defs.append(marker);
  layer.append(defs);
  const points = (move.path && move.path.length ? move.path : [move.from, move.to]).map(squareCenter);
  layer.append(svg('polyline', {
    class: 'arrow best',
    points: points.map(([x, y]) => `${x},${y}`).join(' '),
    'marker-end': 'url(#head)',
  }));
}

// ---------------------------------------------------------------- moving

function canMove() {
  if (!state.position || !state.position.legal.length) return false;
  if (state.mode !== 'play') return true;
  if (state.play.over || state.play.thinking) return false;
  return state.position.side === state.play.user;
}

function onSquare(square) {
  if (!canMove()) return;
  const position = state.position;
  if (state.choosing) {
    const fitting = state.choosing.filter((m) => m.captured.includes(square));
    if (fitting.length === 1) return playMove(fitting[0]);
    if (fitting.length > 1) {
      state.choosing = fitting;
      showChooser();
      return board.draw();
    }
    return cancelChoice();
  }
  if (state.selected != null) {
    const candidates = position.legal.filter((m) => m.from === state.selected && m.to === square);
    if (candidates.length === 1) return playMove(candidates[0]);
    if (candidates.length > 1) {
      state.choosing = candidates;
      showChooser();
      return board.draw();
    }
  }
  state.selected = position.legal.some((m) => m.from === square) && square !== state.selected ? square : null;
  board.draw();
}

function showChooser() {
  const box = $('#chooser');
  box.textContent = '';
  box.append(el('div', { class: 'muted', text: 'Which pieces? Click one taken, or a path:' }));
  for (const move of state.choosing) {
    const names = move.path.map((s) => squareName(s));
    box.append(el('button', { class: 'choice', text: names.join('x'), onclick: () => playMove(move) }));
  }
  box.append(el('button', { class: 'choice cancel', text: 'Cancel', onclick: cancelChoice }));
  box.hidden = false;
}

function cancelChoice() {
  state.choosing = null;
  state.selected = null;
  $('#chooser').hidden = true;
  board.draw();
}

function squareName(square) {
  return state.notation === 'numeric' ? String(square) : state.setup.square_names[square - 1];
}

// Plays `move` (a legal-move record of the current position) from the current node.
function playMove(move) {
  state.choosing = null;
  state.selected = null;
  $('#chooser').hidden = true;
  const parent = state.current;
  let child = parent.child(move.id);
  if (!child) {
    child = new MoveNode(parent, move.id, move.text);
    parent.children.push(child);
  }
  if (state.mode === 'play') {
    // The game played is the main line: a move played after taking back replaces it,
    // and the old continuation stays as a variation.
    for (let node = child; node.parent; node = node.parent) {
      const siblings = node.parent.children;
      siblings.splice(siblings.indexOf(node), 1);
      siblings.unshift(node);
    }
    // Taking back and playing on continues the game from here.
    child.children = [];
    state.play.over = null;
    clockMoved();
  }
  show(child);
}

// Drag and drop with the pointer (mouse and touch); a plain click goes to onSquare.
function setupDrag() {
  const root = $('#board');
  let drag = null;
  let suppressClick = false;
  root.addEventListener('pointerdown', (event) => {
    const cell = event.target.closest('[data-square]');
    if (!cell || !canMove() || state.choosing) return;
    const square = Number(cell.dataset.square);
    if (!state.position.legal.some((m) => m.from === square)) return;
    drag = { square, x: event.clientX, y: event.clientY, ghost: null, id: event.pointerId };
  });
  root.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      const piece = board.cells.get(drag.square).querySelector('.piece');
      if (!piece) { drag = null; return; }
      const rect = piece.getBoundingClientRect();
      drag.ghost = piece.cloneNode(true);
      drag.ghost.classList.add('ghost');
      drag.ghost.style.width = `${rect.width}px`;
      drag.ghost.style.height = `${rect.height}px`;
      document.body.append(drag.ghost);
      piece.classList.add('dragging');
      state.selected = drag.square;
      board.draw();
      board.cells.get(drag.square).querySelector('.piece').classList.add('dragging');
      try { root.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ }
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const finished = drag;
    drag = null;
    if (!finished.ghost) return;
    finished.ghost.remove();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = under && under.closest('[data-square]');
    const square = cell ? Number(cell.dataset.square) : null;
    state.selected = finished.square;
    if (square != null && square !== finished.square) onSquare(square);
    else board.draw();
  };
  root.addEventListener('pointerup', end);
  root.addEventListener('pointercancel', end);
  root.addEventListener('click', (event) => {
    if (suppressClick) return;
    const cell = event.target.closest('[data-square]');
    if (cell) onSquare(Number(cell.dataset.square));
  });
}

// ---------------------------------------------------------------- showing a node

// A FEN the player is typing is not overwritten by a position shown meanwhile.
function fenBeingEdited() {
  const field = $('#fen');
  return document.activeElement === field && field.dataset.edited === '1';
}

async function show(node) {
  const token = ++state.showToken;
  state.current = node;
  state.selected = null;
  state.choosing = null;
  $('#chooser').hidden = true;
  let position;
  let parentPosition = null;
  try {
    [position, parentPosition] = await Promise.all([
      fetchPosition(lineOf(node)),
      node.parent ? fetchPosition(lineOf(node.parent)) : null,
    ]);
  } catch (error) {
    notice(error.message);
    return;
  }
  if (token !== state.showToken) return;
  state.position = position;
  state.lastMove = parentPosition ? parentPosition.legal.find((m) => m.id === node.id) || null : null;
  if (node.parent && position.moves.length) {
    node.text = position.moves[position.moves.length - 1].text;
    node.number = position.moves[position.moves.length - 1].number;
  }
  board.draw();
  renderMoves();
  if (!fenBeingEdited()) $('#fen').value = position.fen;
  $('#comment').value = node.comment || '';
  $('#comment').disabled = !node.parent;
  renderStatus();
  renderChartCursor();
  // Which game is shown (the browser tests wait for a new one by it).
  document.body.dataset.game = String(state.game.number);
  afterShow();
}

function afterShow() {
  if (state.mode === 'analysis') {
    showBook();
    if (state.analysis.running) scheduleAnalysis();
  }
  if (state.mode === 'play') {
    clockTurn();
    maybeEngineMove();
  }
  if (!document.body.dataset.ready) {
    // How long the page took to show its first position (the browser tests read it).
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = '1';
  }
}

const RESULT_WORDS = { '2-0': 'White wins', '0-2': 'Black wins', '1-1': 'Draw' };

function renderStatus() {
  const position = state.position;
  const status = $('#status');
  const side = position.side === 'white' ? 'White' : 'Black';
  let text;
  let over = null;
  if (position.outcome) over = position.outcome;
  else if (state.mode === 'play' && state.play.over && state.current === mainLineEnd(state.game.root)) over = state.play.over;
  if (over) {
    text = `${RESULT_WORDS[over.result] || over.result} (${over.result}): ${over.reason}`;
  } else if (state.mode === 'play') {
    if (state.play.thinking) text = `${side} to move: damas is thinking…`;
    else if (position.side === state.play.user) text = `${side} to move: your move`;
    else text = `${side} to move`;
  } else {
    text = `${side} to move`;
  }
  if (state.mode === 'play' && state.play.note && !over) text += ` · ${state.play.note}`;
  status.textContent = text;
  status.classList.toggle('over', !!over);
}

function notice(message) {
  const status = $('#status');
  status.textContent = message;
  status.classList.add('error');
  setTimeout(() => status.classList.remove('error'), 3000);
}

// ---------------------------------------------------------------- the move list

function moveLabel(node, withNumber) {
  const span = el('span', { class: 'move', 'data-path': node.path.join('.') });
  if (node === state.current) span.classList.add('current');
  const ply = node.ply - 1;
  const whiteMoved = state.startWhite ? ply % 2 === 0 : ply % 2 === 1;
  const number = state.startWhite ? Math.floor(ply / 2) + 1 : Math.floor((ply + 1) / 2) + 1;
  if (whiteMoved || withNumber) {
    span.append(el('span', { class: 'num', text: whiteMoved ? `${number}.` : `${number}...` }));
  }
  span.append(el('span', { class: 'san', text: node.text }));
  const judged = reviewOf(node);
  if (judged && judged.mark) {
    span.append(el('span', { class: `mark ${markClass(judged.mark)}`, text: judged.mark }));
    if (judged.best) span.title = `better: ${judged.best}`;
  }
  span.addEventListener('click', () => show(node));
  const parts = [span, ' '];
  if (node.comment) parts.push(el('span', { class: 'comment', text: node.comment }), ' ');
  return parts;
}

function markClass(mark) {
  return { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' }[mark] || '';
}

// The moves from `parent` on: its main move, then its alternatives as variations,
// then on down the main move.
function renderChildren(container, parent, numberFirst) {
  let node = parent;
  let withNumber = numberFirst;
  while (node.children.length) {
    const main = node.children[0];
    container.append(...moveLabel(main, withNumber));
    withNumber = false;
    for (const alternative of node.children.slice(1)) {
      const variation = el('span', { class: 'variation' });
      variation.append(...moveLabel(alternative, true));
      renderChildren(variation, alternative, false);
      container.append(variation, ' ');
      withNumber = true;
    }
    if (main.comment) withNumber = true;
    node = main;
  }
}

function renderMoves() {
  const list = $('#moves');
  list.textContent = '';
  renderChildren(list, state.game.root, true);
  const result = state.play.over && state.mode === 'play' ? state.play.over.result : null;
  if (result) list.append(el('span', { class: 'result', text: result }));
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

function goBack() {
  if (state.current.parent) show(state.current.parent);
}

function goForward() {
  if (state.current.children.length) show(state.current.children[0]);
}

function promote() {
  let node = state.current;
  while (node.parent && node.parent.children[0] === node) node = node.parent;
  if (!node.parent) return;
  const siblings = node.parent.children;
  siblings.splice(siblings.indexOf(node), 1);
  siblings.unshift(node);
  renderMoves();
}

function deleteVariation() {
  let node = state.current;
  if (!node.parent) return;
  if (!node.onMainLine) {
    while (node.parent.children[0] === node) node = node.parent;
  }
  const parent = node.parent;
  parent.children.splice(parent.children.indexOf(node), 1);
  show(parent);
}

// ---------------------------------------------------------------- play

async function startNewGame() {
  stopJobs();
  const variant = $('#variant').value;
  state.play.user = $('#color').value;
  state.play.strength = Number($('#strength').value);
  state.play.time = $('#time').value;
  state.play.over = null;
  state.play.note = '';
  state.play.lastScore = null;
  const choice = $('#start').value;
  let start = null;
  let ids = [];
  if (choice === 'fen') {
    try {
      start = (await api('/api/fen', { fen: $('#fen').value.trim(), variant })).fen;
    } catch (error) {
      notice(error.message);
      return;
    }
  } else if (choice !== 'initial') {
    const ballot = state.setup.ballots[variant][Number(choice)];
    start = ballot.start || null;
    ids = ballot.moves;
  }
  const you = 'You';
  const engine = `damas (${strengthName(state.play.strength)})`;
  const tags = [
    ['Event', 'damas web'],
    ['Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.')],
    ['White', state.play.user === 'white' ? you : engine],
    ['Black', state.play.user === 'white' ? engine : you],
  ];
  await loadGame(newGame(variant, start, tags), ids);
  state.play.clocks = makeClocks(state.play.time);
  if (state.mode === 'play') renderClocks();
  state.flipped = state.play.user === 'black';
  board.build();
  show(mainLineEnd(state.game.root));
}

function strengthName(number) {
  const strength = state.setup.strengths.find((s) => s.number === number);
  return strength ? `${strength.number} ${strength.name}` : String(number);
}

// Replaces the game: `ids` are played from its start as the main line.
async function loadGame(game, ids = []) {
  state.game = game;
  state.review = null;
  renderReview();
  addLine(game.root, ids);
  const rootPosition = await fetchPosition(lineOf(game.root));
  state.startWhite = rootPosition.side === 'white';
  await relabel();
}

function maybeEngineMove() {
  if (state.mode !== 'play' || state.play.over || state.play.thinking) return;
  const position = state.position;
  if (!position || position.outcome || !position.legal.length) return;
  if (position.side === state.play.user) return;
  if (state.current !== mainLineEnd(state.game.root)) return;
  const node = state.current;
  const clocks = state.play.clocks;
  const thinking = { node, id: null };
  state.play.thinking = thinking;
  renderStatus();
  document.body.dataset.thinking = '1';
  thinking.id = socket.send({
    type: 'play',
    line: lineOf(node),
    strength: state.play.strength,
    time: state.play.time,
    clock: clocks ? { white: clocks.left.white / 1000, black: clocks.left.black / 1000 } : null,
    notation: state.notation,
  }, (message) => {
    if (message.type === 'move' || message.type === 'error' || message.type === 'closed') {
      socket.forget(thinking.id);
      if (state.play.thinking === thinking) state.play.thinking = null;
      delete document.body.dataset.thinking;
    }
    if (message.type === 'error') notice(message.message);
    if (message.type !== 'move' || state.current !== node || state.mode !== 'play') {
      if (state.current === node && state.position) renderStatus();
      return;
    }
    if (message.score) state.play.lastScore = message.score;
    const move = state.position.legal.find((m) => m.id === message.move);
    if (move) playMove(move);
    else notice(`the engine answered ${message.move}, not legal here`);
  });
}

function stopThinking() {
  const thinking = state.play.thinking;
  if (!thinking) return;
  socket.forget(thinking.id);
  socket.stop();
  state.play.thinking = null;
  delete document.body.dataset.thinking;
}

function finishGame(result, reason) {
  stopThinking();
  // The game ends where it stands: moves taken back are dropped.
  state.current.children = [];
  state.play.over = { result, reason };
  state.play.note = '';
  state.game.result = result;
  clockStop();
  renderStatus();
  renderMoves();
  board.draw();
}

function resign() {
  if (state.mode !== 'play' || state.play.over || (state.position && state.position.outcome)) return;
  const white = state.play.user === 'white';
  finishGame(white ? '0-2' : '2-0', `${white ? 'White' : 'Black'} resigned`);
}

// The engine accepts a draw when its last score is within a fifth of a man of
// level (or proven a draw) and at least 20 moves each have been played.
const DRAW_MIN_PLIES = 40;
const DRAW_MARGIN_MEN = 0.2;

function offerDraw() {
  if (state.mode !== 'play' || state.play.over || (state.position && state.position.outcome)) return;
  const score = state.play.lastScore;
  const plies = mainLineEnd(state.game.root).ply;
  const level = score && ((score.men !== undefined && Math.abs(score.men) <= DRAW_MARGIN_MEN)
    || (score.verdict !== undefined && /draw/i.test(score.verdict)));
  if (level && plies >= DRAW_MIN_PLIES) {
    finishGame('1-1', 'draw agreed');
  } else {
    state.play.note = plies < DRAW_MIN_PLIES ? 'damas declines the draw: too early' : 'damas declines the draw';
    renderStatus();
    setTimeout(() => { state.play.note = ''; if (state.position) renderStatus(); }, 4000);
  }
}

function takeBack() {
  if (state.mode !== 'play') return goBack();
  stopThinking();
  state.play.over = null;
  let node = state.current;
  if (!node.parent) return;
  node = node.parent;
  // Back to a position where it is the user's move.
  const userToMove = (n) => (n.ply % 2 === 0) === (state.startWhite === (state.play.user === 'white'));
  while (node.parent && !userToMove(node)) node = node.parent;
  show(node);
}

function replay() {
  if (state.mode !== 'play') return goForward();
  let node = state.current;
  if (!node.children.length) return;
  node = node.children[0];
  if (node.children.length) node = node.children[0];
  show(node);
}

// ---------------------------------------------------------------- clocks

function parseSeconds(text) {
  const match = /^([0-9.]+)\s*(ms|s|min|m)?$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]);
  const unit = { ms: 0.001, s: 1, m: 60, min: 60 }[match[2] || 's'];
  return value * unit;
}

// A game clock of `clock=[M/]B[+I]` (seconds unless a unit says otherwise).
function makeClocks(time) {
  if (!time.startsWith('clock=')) return null;
  let text = time.slice('clock='.length);
  if (text.includes('/')) text = text.split('/')[1];
  const [base, inc = '0'] = text.split('+');
  const baseS = parseSeconds(base);
  const incS = parseSeconds(inc);
  if (baseS == null || incS == null) return null;
  return { left: { white: baseS * 1000, black: baseS * 1000 }, inc: incS * 1000, running: null, since: 0, timer: null };
}

function clockTurn() {
  const clocks = state.play.clocks;
  if (!clocks || state.play.over || state.position.outcome) { clockStop(); renderClocks(); return; }
  if (state.current !== mainLineEnd(state.game.root)) return;
  if (clocks.running !== state.position.side) {
    clocks.running = state.position.side;
    clocks.since = performance.now();
  }
  if (!clocks.timer) clocks.timer = setInterval(clockTick, 200);
  renderClocks();
}

function clockMoved() {
  const clocks = state.play.clocks;
  if (!clocks || !clocks.running) return;
  const side = clocks.running;
  clocks.left[side] += clocks.inc - (performance.now() - clocks.since);
  clocks.running = null;
}

function clockStop() {
  const clocks = state.play.clocks;
  if (!clocks) return;
  if (clocks.timer) clearInterval(clocks.timer);
  clocks.timer = null;
  clocks.running = null;
}

function clockLeft(side) {
  const clocks = state.play.clocks;
  let left = clocks.left[side];
  if (clocks.running === side) left -= performance.now() - clocks.since;
  return left;
}

function clockTick() {
  const clocks = state.play.clocks;
  if (!clocks || !clocks.running) return;
  const side = clocks.running;
  if (clockLeft(side) <= 0 && side === state.play.user) {
    clocks.left[side] = 0;
    finishGame(side === 'white' ? '0-2' : '2-0', `${side === 'white' ? 'White' : 'Black'} ran out of time`);
  }
  renderClocks();
}

function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

function renderClocks() {
  const clocks = state.play.clocks;
  const box = $('#clocks');
  box.hidden = !clocks || state.mode !== 'play';
  if (box.hidden) return;
  const top = state.flipped ? 'white' : 'black';
  const bottom = state.flipped ? 'black' : 'white';
  for (const [id, side] of [['#clock-top', top], ['#clock-bottom', bottom]]) {
    const node = $(id);
    node.textContent = `${side === 'white' ? 'White' : 'Black'} ${formatClock(clockLeft(side))}`;
    node.classList.toggle('running', clocks.running === side);
  }
}

// ---------------------------------------------------------------- analysis

function formatScore(score) {
  if (!score) return '';
  if (score.verdict !== undefined) return score.verdict;
  const men = score.men;
  return `${men > 0 ? '+' : men < 0 ? '−' : ''}${Math.abs(men).toFixed(2)}`;
}

// Analysis restarts a moment after the last step, so that stepping through a game
// sends one request, not one a position.
let analysisTimer = null;
function scheduleAnalysis() {
  clearTimeout(analysisTimer);
  if (state.analysis.job) {
    socket.forget(state.analysis.job.id);
    state.analysis.job = null;
  }
  state.analysis.best = null;
  drawArrows();
  analysisTimer = setTimeout(startAnalysis, 150);
}

function startAnalysis() {
  clearTimeout(analysisTimer);
  // A new job replaces the socket's running one: no stop needed.
  if (state.analysis.job) socket.forget(state.analysis.job.id);
  state.analysis.job = null;
  const node = state.current;
  const analysis = state.analysis;
  analysis.running = true;
  analysis.best = null;
  $('#analyze-toggle').textContent = 'Stop analysis';
  $('#analyze-toggle').classList.add('running');
  $('#analysis').textContent = '';
  $('#analysis-info').textContent = 'thinking…';
  if (!state.position || !state.position.legal.length) {
    $('#analysis-info').textContent = state.position && state.position.outcome ? 'the game is over' : '';
    socket.stop();
    return;
  }
  // `depth`: the last completed iteration's, whose lines are shown.
  const job = { id: null, node, depth: null };
  analysis.job = job;
  const request = { type: 'analyze', line: lineOf(node), lines: Number($('#lines').value), notation: state.notation };
  job.id = socket.send(request, (message) => {
    if (analysis.job !== job) return;
    if (message.type === 'info') {
      job.depth = message.depth;
      renderInfo(message, node);
    } else if (message.type === 'searching') renderSearching(message, job.depth);
    else if (message.type === 'done') {
      $('#analysis-info').textContent += ' · done';
      socket.forget(job.id);
    } else if (message.type === 'error') notice(message.message);
  });
}

function stopAnalysisJob() {
  clearTimeout(analysisTimer);
  const job = state.analysis.job;
  if (job) {
    socket.forget(job.id);
    socket.stop();
    state.analysis.job = null;
  }
}

function stopAnalysis() {
  stopAnalysisJob();
  state.analysis.running = false;
  state.analysis.best = null;
  $('#analyze-toggle').textContent = 'Start analysis';
  $('#analyze-toggle').classList.remove('running');
  drawArrows();
}

// The search's counts: nodes, speed and time.
function searchCounts(report) {
  const nps = report.nps ? ` · ${formatCount(report.nps)}/s` : '';
  return `${formatCount(report.nodes)} nodes${nps} · ${(report.time_ms / 1000).toFixed(1)} s`;
}

// The analysis's status line; `kind` ('info' or 'searching') says what updated it.
function showAnalysisStatus(text, kind) {
  const box = $('#analysis-info');
  box.dataset.kind = kind;
  box.textContent = text;
}

// Between completed iterations, the live counts of the one under way; the lines stay
// those of the last completed iteration (`depth`, null before the first).
function renderSearching(report, depth) {
  const done = depth === null ? '' : `depth ${depth} · `;
  showAnalysisStatus(`${done}searching ${report.depth} · ${searchCounts(report)}`, 'searching');
}

function renderInfo(info, node) {
  showAnalysisStatus(
    `depth ${info.depth}${info.seldepth ? `/${info.seldepth}` : ''} · ${searchCounts(info)}`, 'info');
  const box = $('#analysis');
  box.textContent = '';
  const ply = node.ply;
  for (const line of info.lines) {
    const pv = el('span', { class: 'pv' });
    line.pv.forEach((text, i) => {
      const p = ply + i;
      const white = state.startWhite ? p % 2 === 0 : p % 2 === 1;
      const number = state.startWhite ? Math.floor(p / 2) + 1 : Math.floor((p + 1) / 2) + 1;
      let label = text;
      if (white) label = `${number}. ${text}`;
      else if (i === 0) label = `${number}... ${text}`;
      pv.append(el('span', { class: 'pv-move', text: label }), ' ');
    });
    const row = el('div', { class: 'line', title: 'Play the first move' },
      el('span', { class: 'score', text: formatScore(line.score) }), pv);
    row.addEventListener('click', () => {
      const move = state.position.legal.find((m) => m.id === line.move);
      if (move) playMove(move);
    });
    box.append(row);
  }
  state.analysis.best = info.lines.length ? info.lines[0].move : null;
  drawArrows();
}

function formatCount(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

async function showBook() {
  const node = state.current;
  const box = $('#book');
  let book;
  try {
    book = await fetchBook(lineOf(node));
  } catch (error) {
    box.textContent = error.message;
    return;
  }
  if (state.current !== node) return;
  box.textContent = '';
  if (!book.moves.length) {
    box.append(el('div', { class: 'muted', text: 'out of book' }));
    return;
  }
  const total = book.moves.reduce((sum, m) => sum + m.weight, 0) || 1;
  for (const entry of book.moves) {
    const share = Math.round((100 * entry.weight) / total);
    const row = el('div', { class: 'book-move' },
      el('span', { class: 'san', text: entry.text }),
      el('span', { class: 'bar' }, el('span', { style: `width:${share}%` })),
      el('span', { class: 'weight', text: `${entry.weight} (${share}%)` }));
    row.addEventListener('click', () => {
      const move = state.position.legal.find((m) => m.id === entry.id);
      if (move) playMove(move);
    });
    box.append(row);
  }
}

// ---------------------------------------------------------------- review

function startReview() {
  const end = mainLineEnd(state.game.root);
  if (!end.parent) {
    $('#review-progress').textContent = 'no moves to review';
    return;
  }
  stopJobs();
  const line = lineOf(end);
  const progress = $('#review-progress');
  progress.textContent = 'reviewing…';
  const time = $('#review-time').value || null;
  const job = { id: null };
  state.reviewJob = job;
  job.id = socket.send({ type: 'review', line, time }, (message) => {
    if (state.reviewJob !== job) return;
    if (message.type === 'progress') {
      progress.textContent = `reviewing… ${message.done}/${message.total}`;
    } else if (message.type === 'review') {
      socket.forget(job.id);
      state.reviewJob = null;
      progress.textContent = `reviewed ${message.moves.length} moves (${message.rules})`;
      state.review = { variant: line.variant, start: line.start, ids: line.moves, moves: message.moves, curve: message.curve, summary: message.summary };
      renderReview();
      renderMoves();
    } else if (message.type === 'error' || message.type === 'closed') {
      progress.textContent = message.message || 'the review stopped';
      state.reviewJob = null;
    }
  });
}

// The review of `node`'s move when it lies on the reviewed line.
function reviewOf(node) {
  const review = state.review;
  if (!review || !node.parent) return null;
  const ids = node.ids;
  if (review.variant !== state.game.variant || review.start !== state.game.start) return null;
  if (ids.some((id, i) => review.ids[i] !== id)) return null;
  return review.moves.find((m) => m.ply === node.ply - 1) || null;
}

const CHART = { width: 600, height: 160, pad: 6, limit: 3 };

function renderReview() {
  const chart = $('#chart');
  chart.textContent = '';
  $('#review-summary').textContent = '';
  $('#review-marks').textContent = '';
  const review = state.review;
  if (!review) return;
  // Drawn at the chart's own width, so that points stay round.
  CHART.width = chart.clientWidth || 600;
  chart.setAttribute('viewBox', `0 0 ${CHART.width} ${CHART.height}`);
  const { width, height, pad, limit } = CHART;
  const count = Math.max(1, review.curve.length);
  const x = (ply) => pad + ((width - 2 * pad) * ply) / count;
  const y = (men) => height / 2 - ((height / 2 - pad) * Math.max(-limit, Math.min(limit, men))) / limit;
  chart.append(svg('rect', { class: 'chart-black', x: 0, y: 0, width, height }));
  const points = [[x(0), y(0)], ...review.curve.map((p) => [x(p.ply), y(p.men)])];
  const area = `M${x(0)},${height} ` + points.map(([px, py]) => `L${px},${py}`).join(' ') + ` L${points[points.length - 1][0]},${height} Z`;
  chart.append(svg('path', { class: 'chart-white', d: area }));
  chart.append(svg('line', { class: 'chart-zero', x1: 0, x2: width, y1: height / 2, y2: height / 2 }));
  chart.append(svg('polyline', { class: 'chart-line', points: points.map((p) => p.join(',')).join(' ') }));
  chart.append(svg('line', { id: 'chart-cursor', class: 'chart-cursor', x1: -10, x2: -10, y1: 0, y2: height }));
  const marks = new Map(review.moves.map((m) => [m.ply + 1, m.mark]));
  for (const point of review.curve) {
    const mark = marks.get(point.ply);
    const dot = svg('circle', {
      class: `point ${mark ? markClass(mark) : ''}`,
      'data-ply': point.ply,
      cx: x(point.ply),
      cy: y(point.men),
      r: mark ? 5 : 3.5,
    });
    const title = svg('title');
    title.textContent = `ply ${point.ply}: ${point.men > 0 ? '+' : ''}${point.men.toFixed(2)}`;
    dot.append(title);
    dot.addEventListener('click', () => goToPly(point.ply));
    chart.append(dot);
  }
  const summary = $('#review-summary');
  for (const side of ['white', 'black']) {
    const s = review.summary && review.summary[side];
    if (s) summary.append(el('div', { class: 'summary' }, el('b', { text: side === 'white' ? 'White: ' : 'Black: ' }), summaryText(s)));
  }
  const list = $('#review-marks');
  const nodes = mainLineNodes();
  for (const move of review.moves) {
    if (!move.mark) continue;
    const node = nodes[move.ply];
    const number = move.number || (node && node.number) || '';
    const item = el('li', { class: `marked ${markClass(move.mark)}` },
      el('b', { text: `${number} ${move.played}${move.mark}` }),
      ` ${move.label || ''}`,
      move.best ? ` · better ${move.best}${move.best_label ? ` (${move.best_label})` : ''}` : '');
    item.addEventListener('click', () => goToPly(move.ply + 1));
    list.append(item);
  }
  renderChartCursor();
}

// `4 moves · 1 blunder · 0 mistakes · 0 inaccuracies · average loss 1.26 men`.
function summaryText(s) {
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const parts = [];
  if (s.moves !== undefined) parts.push(count(s.moves, 'move', 'moves'));
  if (s.blunders !== undefined) parts.push(count(s.blunders, 'blunder', 'blunders'));
  if (s.mistakes !== undefined) parts.push(count(s.mistakes, 'mistake', 'mistakes'));
  if (s.inaccuracies !== undefined) parts.push(count(s.inaccuracies, 'inaccuracy', 'inaccuracies'));
  if (s.average_loss !== undefined) parts.push(`average loss ${Number(s.average_loss).toFixed(2)} men`);
  return parts.join(' · ');
}

// The judgement of the move shown, under the chart.
function renderReviewCurrent() {
  const box = $('#review-current');
  box.textContent = '';
  const judged = state.current && reviewOf(state.current);
  if (!judged) return;
  box.append(el('b', { text: `${judged.number || ''} ${judged.played}${judged.mark || ''}` }), ` ${judged.label || ''}`);
  if (judged.best) box.append(el('div', { text: `better ${judged.best}${judged.best_label ? ` (${judged.best_label})` : ''}` }));
}

function renderChartCursor() {
  renderReviewCurrent();
  const cursor = document.getElementById('chart-cursor');
  if (!cursor || !state.review || !state.current) return;
  const count = Math.max(1, state.review.curve.length);
  const { width, pad } = CHART;
  const ply = state.current.onMainLine ? state.current.ply : -100;
  const px = pad + ((width - 2 * pad) * ply) / count;
  cursor.setAttribute('x1', px);
  cursor.setAttribute('x2', px);
}

function goToPly(ply) {
  let node = state.game.root;
  for (let i = 0; i < ply && node.children.length; i += 1) node = node.children[0];
  show(node);
}

// ---------------------------------------------------------------- PDN and FEN

let loadedGames = [];

async function loadPdn(text) {
  let answer;
  try {
    answer = await api('/api/pdn/read', { text });
  } catch (error) {
    notice(error.message);
    return;
  }
  loadedGames = answer.games;
  const select = $('#game-select');
  select.textContent = '';
  loadedGames.forEach((game, i) => {
    const tag = (name) => (game.tags.find(([k]) => k === name) || [])[1] || '?';
    select.append(el('option', { value: i, text: `${i + 1}. ${tag('White')} – ${tag('Black')} ${game.result || ''}` }));
  });
  select.hidden = loadedGames.length < 2;
  if (loadedGames.length) await openLoadedGame(0);
}

async function openLoadedGame(index) {
  const data = loadedGames[index];
  stopJobs();
  const game = newGame(data.variant, data.start, data.tags);
  game.result = data.result || null;
  treeFromPdn(game.root, data.tree);
  if ($('#variant').value !== data.variant) {
    $('#variant').value = data.variant;
    fillStarts();
  }
  await loadGame(game);
  state.play.over = null;
  if (state.mode === 'play') setMode('analysis');
  show(game.root);
}

// The game as the PDN writer takes it; the result is the one the game ended with
// (resigned, agreed, read from the PDN, or the rules' end of the main line).
async function gameForPdn() {
  const game = state.game;
  let result = game.result;
  if (!result) {
    const end = await fetchPosition(lineOf(mainLineEnd(game.root)));
    result = end.outcome ? end.outcome.result : null;
  }
  return {
    // The result goes in `result`; the writer makes its tag (as GameType's and FEN's).
    tags: game.tags.filter(([key]) => key !== 'Result'),
    variant: game.variant,
    start: game.start,
    result,
    tree: game.root.children.length ? treeToPdn(game.root.children[0], true) : [],
  };
}

async function downloadPdn() {
  let answer;
  try {
    answer = await api('/api/pdn/write', { games: [await gameForPdn()] });
  } catch (error) {
    notice(error.message);
    return;
  }
  const blob = new Blob([answer.text], { type: 'application/x-pdn' });
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: 'damas.pdn' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function setFen() {
  const variant = $('#variant').value;
  let fen;
  try {
    fen = (await api('/api/fen', { fen: $('#fen').value.trim(), variant })).fen;
  } catch (error) {
    notice(error.message);
    return;
  }
  stopJobs();
  if (state.mode === 'play') {
    $('#start').value = 'fen';
    $('#fen').value = fen;
    return startNewGame();
  }
  await loadGame(newGame(variant, fen, [['Event', 'damas web'], ['SetUp', '1'], ['FEN', fen]]));
  show(state.game.root);
}

// ---------------------------------------------------------------- modes and setup

// After the socket came back: the job the page was waiting for, asked again.
function resumeJobs() {
  if (!state.position) return;
  if (state.mode === 'play') maybeEngineMove();
  if (state.mode === 'analysis' && state.analysis.running) startAnalysis();
}

function stopJobs() {
  stopThinking();
  stopAnalysisJob();
  if (state.reviewJob) {
    socket.forget(state.reviewJob.id);
    socket.stop();
    state.reviewJob = null;
  }
}

function setMode(mode) {
  if (mode === state.mode) return;
  if (state.mode === 'analysis') stopAnalysis();
  if (state.mode === 'play') { stopThinking(); clockStop(); }
  state.mode = mode;
  for (const tab of document.querySelectorAll('#modes .tab')) {
    tab.classList.toggle('active', tab.dataset.mode === mode);
    tab.setAttribute('aria-selected', String(tab.dataset.mode === mode));
  }
  $('#panel-play').hidden = mode !== 'play';
  $('#panel-analysis').hidden = mode !== 'analysis';
  $('#panel-review').hidden = mode !== 'review';
  document.body.dataset.mode = mode;
  renderClocks();
  if (mode === 'review') renderReview();
  if (state.current) show(state.current);
}

function fillSelect(select, options) {
  select.textContent = '';
  for (const [value, text] of options) select.append(el('option', { value, text }));
}

function fillStarts() {
  const variant = $('#variant').value;
  const ballots = state.setup.ballots[variant] || [];
  fillSelect($('#start'), [
    ['initial', 'initial position'],
    ...ballots.map((b, i) => [String(i), `ballot: ${b.name}`]),
    ['fen', 'the FEN below'],
  ]);
}

async function changeVariant() {
  fillStarts();
  stopJobs();
  if (state.mode === 'play') return startNewGame();
  await loadGame(newGame($('#variant').value, null, [['Event', 'damas web']]));
  show(state.game.root);
}

async function changeNotation() {
  state.notation = $('#notation').value;
  await relabel();
  board.build();
  show(state.current);
}

// `move-time=0.5` as `0.5 s a move`, `clock=5m+3` as `5 min + 3 s`.
function timeLabel(time) {
  const [key, value] = time.split('=');
  if (key === 'move-time' || key === 'time') return `${value} s a move`;
  if (key === 'nodes') return `${value} nodes a move`;
  if (key === 'depth') return `depth ${value}`;
  if (key === 'clock') {
    const [base, inc = '0'] = value.split('+');
    const baseText = base.replace(/^(.*\/)?([0-9.]+)(m|min)$/, '$2 min').replace(/^(.*\/)?([0-9.]+)s?$/, '$2 s');
    return `${baseText} + ${inc.replace(/s$/, '')} s`;
  }
  return time;
}

function bind(selector, event, handler) {
  $(selector).addEventListener(event, handler);
}

function onKey(event) {
  if (event.target.closest('input, textarea, select')) return;
  const keys = {
    ArrowLeft: () => (state.mode === 'play' ? takeBack() : goBack()),
    ArrowRight: () => (state.mode === 'play' ? replay() : goForward()),
    Home: () => show(state.game.root),
    End: () => show(mainLineEnd(state.current)),
    f: () => flip(),
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

function flip() {
  state.flipped = !state.flipped;
  board.build();
  board.draw();
  renderClocks();
}

async function init() {
  try {
    state.setup = await api('/api/setup');
  } catch (error) {
    $('#status').textContent = `The server did not answer: ${error.message}`;
    return;
  }
  const setup = state.setup;
  fillSelect($('#variant'), setup.variants.map((v) => [v, v[0].toUpperCase() + v.slice(1)]));
  fillSelect($('#notation'), setup.notations.map((n) => [n, n]));
  fillSelect($('#strength'), setup.strengths.map((s) => [String(s.number), `${s.number} · ${s.name}`]));
  $('#strength').value = String(setup.default_strength);
  fillSelect($('#time'), setup.clocks.map((c) => [c, timeLabel(c)]));
  fillStarts();

  for (const tab of document.querySelectorAll('#modes .tab')) bind(`#${tab.id}`, 'click', () => setMode(tab.dataset.mode));
  bind('#variant', 'change', changeVariant);
  bind('#notation', 'change', changeNotation);
  bind('#new-game', 'click', startNewGame);
  bind('#resign', 'click', resign);
  bind('#offer-draw', 'click', offerDraw);
  bind('#undo', 'click', takeBack);
  bind('#redo', 'click', replay);
  bind('#first', 'click', () => show(state.game.root));
  bind('#last', 'click', () => show(mainLineEnd(state.current)));
  bind('#flip', 'click', flip);
  bind('#promote', 'click', promote);
  bind('#delete-variation', 'click', deleteVariation);
  bind('#analyze-toggle', 'click', () => (state.analysis.running ? stopAnalysis() : startAnalysis()));
  bind('#lines', 'change', () => { if (state.analysis.running) startAnalysis(); });
  bind('#review-start', 'click', startReview);
  bind('#load-pdn', 'click', () => loadPdn($('#pdn-text').value));
  bind('#pdn-file', 'change', async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const text = await file.text();
    $('#pdn-text').value = text;
    loadPdn(text);
  });
  bind('#game-select', 'change', (event) => openLoadedGame(Number(event.target.value)));
  bind('#download-pdn', 'click', downloadPdn);
  bind('#set-fen', 'click', setFen);
  bind('#fen', 'focus', (event) => { delete event.target.dataset.edited; });
  bind('#fen', 'input', (event) => { event.target.dataset.edited = '1'; });
  bind('#comment', 'change', (event) => {
    if (!state.current.parent) return;
    state.current.comment = event.target.value.trim() || null;
    renderMoves();
  });
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', () => { if (state.mode === 'review') renderReview(); });
  setupDrag();

  socket.connect();
  document.body.dataset.mode = state.mode;
  await startNewGame();
}

init();
