// Playing against the engine by clicking: a whole short game, take-backs, flip,
// draw offers, resigning, Russian rules and a phone-sized screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  setup, openPage, shownPosition, clickMove, clickFirstLegal, chooseTime, clickNewGame, selectVariant,
  untilNewGame, fen, post, PHONE,
} from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const RESULT = /^(White wins|Black wins|Draw) \((2-0|0-2|1-1)\): \S/;

async function statusText(page) {
  return (await page.textContent('#status')).trim();
}

// Waits until the user is to move (the engine has answered) or the game is over.
async function waitForTurn(page) {
  await page.waitForFunction(() => {
    const status = document.querySelector('#status');
    return status.classList.contains('over') || status.textContent.includes('your move');
  }, null, { timeout: 30000 });
  return page.evaluate(() => document.querySelector('#status').classList.contains('over'));
}

async function newQuickGame(page, colour = 'white') {
  await chooseTime(page, 'nodes=2000');
  await page.selectOption('#strength', '1');
  await page.selectOption('#color', colour);
  await clickNewGame(page);
}

test('a whole game against the engine, played by clicking, ends with a result', async () => {
  const page = await openPage(env);
  const readyMs = await page.getAttribute('body', 'data-ready-ms');
  console.log(`page ready (first position shown) ${readyMs} ms after navigation`);
  await newQuickGame(page, 'white');
  let over = false;
  for (let moves = 0; moves < 40 && !over; moves += 1) {
    over = await waitForTurn(page);
    if (over) break;
    await clickFirstLegal(page);
  }
  if (!over) {
    over = await waitForTurn(page);
  }
  if (!over) {
    await page.click('#resign');
    await page.waitForSelector('#status.over');
    assert.match(await statusText(page), /White resigned/);
  }
  assert.match(await statusText(page), RESULT);
  console.log(`the game ended: ${await statusText(page)}`);
  // Every move is in the list, and the game is over: no piece may be moved.
  const count = await page.locator('#moves .move').count();
  assert.ok(count >= 2, `${count} moves listed`);
  assert.equal(await page.locator('#board .sq.movable').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('playing Black: the engine opens; take back, replay, flip and a refused draw', async () => {
  const page = await openPage(env);
  await newQuickGame(page, 'black');
  await waitForTurn(page);
  assert.equal(await page.locator('#moves .move').count(), 1, 'the engine played the first move');
  // Black's view: square 1 (White's side) is at the top.
  const firstSquare = () => page.evaluate(() => document.querySelector('#board [data-square]').dataset.square);
  const flippedFirst = await firstSquare();
  await page.click('#flip');
  assert.notEqual(await firstSquare(), flippedFirst, 'flip turns the board');
  await page.click('#flip');

  const start = await fen(page);
  await clickFirstLegal(page);
  await waitForTurn(page);
  assert.equal(await page.locator('#moves .move').count(), 3);
  const after = await fen(page);
  await page.click('#undo');
  await page.waitForFunction((f) => document.querySelector('#fen').value === f, start);
  await page.click('#redo');
  await page.waitForFunction((f) => document.querySelector('#fen').value === f, after);

  await page.click('#offer-draw');
  await page.waitForFunction(() => document.querySelector('#status').textContent.includes('declines'));
  assert.equal(await page.locator('#status.over').count(), 0, 'the game goes on');
  await page.click('#resign');
  await page.waitForSelector('#status.over');
  assert.match(await statusText(page), /^White wins \(2-0\): Black resigned/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Russian rules: a man crowned in a capture goes on as a king', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  // The man on b6 reaches d8 taking c7: in Russian it goes on as a king and takes
  // f6 too; in Brazilian it stops on d8.
  const start = 'W:Wb6:Ba7,c7,f6';
  await page.click('#io summary');
  await selectVariant(page, 'russian');
  await page.fill('#fen', start);
  await page.click('#set-fen');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 4);
  const position = await shownPosition(page);
  assert.ok(position.legal.length >= 1);
  for (const move of position.legal) assert.equal(move.captured.length, 2, JSON.stringify(move));
  assert.deepEqual(position.must_capture, [position.legal[0].from]);
  assert.equal(await page.locator('#board .sq.must-capture').count(), 1, 'the piece obliged to capture is marked');
  await clickMove(page, position.legal[0], position.legal);
  assert.equal(await page.locator('#board .piece.white.king').count(), 1, 'crowned on the way');
  assert.equal(await page.locator('#board .piece.black').count(), 1);

  const brazilian = await post(page, '/api/position', { variant: 'brazilian', start, moves: [] });
  assert.equal(brazilian.status, 200);
  assert.deepEqual(brazilian.body.legal.map((m) => m.captured.length), [1]);
  await selectVariant(page, 'brazilian');
  await page.fill('#fen', start);
  await page.click('#set-fen');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 4);
  await clickMove(page, brazilian.body.legal[0]);
  assert.equal(await page.locator('#board .piece.white.king').count(), 1, 'crowned where it stops');
  assert.equal(await page.locator('#board .piece.black').count(), 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a FEN being typed is not overwritten by the engine\'s move shown meanwhile', async () => {
  const page = await openPage(env);
  // A middlegame out of the book, White (the engine) to move for half a second.
  await chooseTime(page, 'move-time=0.5');
  await page.selectOption('#color', 'black');
  await page.click('#io summary');
  await page.fill('#fen', 'W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,9,10,11,12,13');
  await untilNewGame(page, () => page.click('#set-fen'));
  const typed = 'W:Wa1:Bh8';
  await page.fill('#fen', typed);
  assert.equal(await page.locator('#moves .move').count(), 0, 'typed while the engine thinks');
  await waitForTurn(page);
  assert.equal(await page.locator('#moves .move').count(), 1);
  assert.equal(await page.inputValue('#fen'), typed, 'the typed FEN is kept');
  // Once the player leaves the field (for a button), the next position shown fills it.
  await page.click('#first');
  await page.waitForFunction((t) => document.querySelector('#fen').value !== t, typed);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a game from an FMJD ballot starts after the ballot\'s moves', async () => {
  const page = await openPage(env);
  const ballot = await page.evaluate(async () => (await (await fetch('/api/setup')).json()).ballots.brazilian[0]);
  await chooseTime(page, 'nodes=2000');
  await page.selectOption('#strength', '1');
  await page.selectOption('#color', 'white');
  await page.selectOption('#start', '0');
  await clickNewGame(page);
  // The ballot's three moves, then the engine's (Black's) reply.
  await page.waitForFunction((n) => document.querySelectorAll('#moves > .move').length > n, ballot.moves.length);
  await waitForTurn(page);
  const texts = await page.$$eval('#moves > .move .san', (nodes) => nodes.map((n) => n.textContent));
  assert.deepEqual(texts.slice(0, ballot.moves.length), ballot.moves);
  assert.equal(texts.length, ballot.moves.length + 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a game on the clock shows both clocks, the running one marked', async () => {
  const page = await openPage(env);
  await chooseTime(page, 'clock=1m+1');
  await page.selectOption('#strength', '1');
  await clickNewGame(page);
  await page.waitForSelector('#clocks:not([hidden])');
  assert.match(await page.textContent('#clock-bottom'), /^White 1:0\d$/);
  assert.match(await page.textContent('#clock-top'), /^Black 1:00$/);
  assert.equal(await page.getAttribute('#clock-bottom', 'class'), 'clock running');
  await waitForTurn(page);
  await clickFirstLegal(page);
  await waitForTurn(page);
  assert.equal(await page.getAttribute('#clock-bottom', 'class'), 'clock running');
  assert.match(await page.textContent('#clock-top'), /^Black [01]:\d\d$/);
  await page.click('#mode-analysis');
  assert.equal(await page.isVisible('#clocks'), false, 'clocks only in play');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone-sized screen the board fits and a move can be played', async () => {
  const page = await openPage(env, PHONE);
  await newQuickGame(page, 'white');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `board ${JSON.stringify(box)}`);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= PHONE.width, `the page scrolls sideways: ${scrollWidth}`);
  await waitForTurn(page);
  await clickFirstLegal(page);
  await waitForTurn(page);
  assert.ok(await page.locator('#moves .move').count() >= 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
