// Games in and out: a PDN with a variation and a comment pasted, opened from a
// file and downloaded back identical; FEN in and out; the notation select.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setup, openPage, fen } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

// A game as the PDN writer writes it, so the download must match it to the byte.
const GAME = `[Event "Variation test"]
[Site "?"]
[Date "2026.12.06"]
[Round "?"]
[White "Alice"]
[Black "Bob"]
[Result "*"]
[GameType "26,W,8,8,A0,0"]

1. c3-d4 f6-g5 (1... f6-e5 2. d4xf6 {White wins a man} g7xe5) 2. b2-c3 g7-f6 *

`;

async function download(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#download-pdn')]);
  return readFile(await file.path(), 'utf8');
}

test('a pasted PDN with a variation is shown and downloads back identical', async () => {
  const page = await openPage(env);
  await page.click('#io summary');
  await page.fill('#pdn-text', GAME);
  await page.click('#load-pdn');
  await page.waitForSelector('#moves .variation .move');
  assert.equal(await page.locator('body[data-mode="analysis"]').count(), 1, 'a loaded game opens on the analysis board');
  assert.equal(await page.locator('#moves > .move').count(), 4);
  assert.equal(await page.locator('#moves .variation > .move').count(), 3);
  assert.equal(await page.textContent('#moves .comment'), 'White wins a man');
  // The variation's moves can be stepped through.
  await page.click('#moves .variation .move[data-path="0.1.0"]');
  await page.waitForSelector('#moves .move.current[data-path="0.1.0"]');
  const text = await download(page);
  assert.equal(text, GAME);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a PDN opened from a file, a variation added, read back by the server', async () => {
  const page = await openPage(env);
  const dir = await mkdtemp(path.join(tmpdir(), 'damas-pdn-'));
  try {
    const file = path.join(dir, 'game.pdn');
    await writeFile(file, GAME);
    await page.click('#io summary');
    await page.setInputFiles('#pdn-file', file);
    await page.waitForSelector('#moves .variation .move');
    // A second variation at White's second move.
    await page.click('#moves > .move[data-path="0.0"]');
    await page.waitForSelector('#moves .move.current[data-path="0.0"]');
    const position = await page.evaluate(async () => {
      const response = await fetch('/api/position', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'brazilian', start: document.querySelector('#fen').value, moves: [] }),
      });
      return response.json();
    });
    const other = position.legal.find((m) => m.id !== 'b2-c3');
    await page.click(`#board [data-square="${other.from}"]`);
    await page.click(`#board [data-square="${other.to}"]`);
    await page.waitForSelector('#moves .move.current[data-path="0.0.1"]');
    const text = await download(page);
    assert.ok(text.replace(/\s+/g, ' ').includes(`(2. ${other.text}) 2... g7-f6`), text);
    const read = await page.evaluate(async (t) => {
      const response = await fetch('/api/pdn/read', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: t }),
      });
      return response.json();
    }, text);
    assert.equal(read.games.length, 1);
    assert.equal(read.games[0].tree[2].variations[0][0].id, other.id);
    assert.equal(read.games[0].tree[1].variations[0][1].comment, 'White wins a man');
  } finally {
    await rm(dir, { recursive: true });
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a PDN of two games: the second chosen from the list', async () => {
  const page = await openPage(env);
  await page.click('#io summary');
  const second = GAME.replace('Variation test', 'Second game').replace(/\n1\. .*\n/, '\n1. e3-f4 f6-e5 *\n');
  await page.fill('#pdn-text', `${GAME}${second}`);
  await page.click('#load-pdn');
  await page.waitForSelector('#game-select:not([hidden])');
  assert.equal(await page.locator('#game-select option').count(), 2);
  await page.selectOption('#game-select', '1');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2);
  assert.equal(await page.textContent('#moves .move .san'), 'e3-f4');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('FEN in and out, numeric notation, and a bad PDN is reported', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  await page.click('#io summary');
  await page.fill('#fen', 'W:Wc3,e3:Bd6,Kf8');
  await page.click('#set-fen');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 4);
  assert.equal(await page.locator('#board .piece.black.king').count(), 1);
  const shown = await fen(page);
  assert.match(shown, /^W:W/);

  await page.selectOption('#notation', 'numeric');
  await page.waitForFunction(() => document.querySelector('#board').classList.contains('numeric'));
  await page.click('#board .sq.movable');
  const target = await page.getAttribute('#board .sq.target', 'data-square');
  await page.click(`#board [data-square="${target}"]`);
  await page.waitForSelector('#moves .move');
  assert.match(await page.textContent('#moves .move .san'), /^\d+-\d+$/);
  // The engine's lines in the same notation.
  await page.click('#analyze-toggle');
  await page.waitForSelector('#analysis .line .pv-move');
  assert.match(await page.textContent('#analysis .line .pv-move'), /^\d+\.(\.\.)? \d+[-x]\d+$/);
  await page.click('#analyze-toggle');

  await page.fill('#pdn-text', '1. c3-d4 c3-d4 *');
  await page.click('#load-pdn');
  await page.waitForSelector('#status.error');
  assert.match(await page.textContent('#status'), /PDN/);
  // A console error for the 400 answer is expected here; nothing was thrown.
  assert.deepEqual(page.errors.filter((e) => !e.includes('400')), []);
  await page.context().close();
});
