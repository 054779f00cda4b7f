// The analysis board: variations in the move tree, promote and delete, live lines
// with the best move's arrow, the opening book, and the page answering clicks while
// the engine searches.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, shownPosition, clickMove, clickFirstLegal, fen } from './harness.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

async function mainLineTexts(page) {
  return page.$$eval('#moves > .move .san', (nodes) => nodes.map((n) => n.textContent));
}

test('stepping back and playing another move makes a variation; promote and delete', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  await clickFirstLegal(page, 0);
  await clickFirstLegal(page, 0);
  const main = await mainLineTexts(page);
  assert.equal(main.length, 2);

  await page.click('#undo');
  await page.waitForSelector('#moves .move.current[data-path="0"]');
  const other = await clickFirstLegal(page, 1);
  const variation = page.locator('#moves .variation .move');
  assert.equal(await variation.count(), 1, 'the other move is a variation');
  assert.equal(await page.getAttribute('#moves .move.current', 'data-path'), '0.1');
  assert.deepEqual(await mainLineTexts(page), main, 'the main line is kept');

  // Going to the main line's move and back to the variation by clicking.
  await page.click('#moves .move[data-path="0.0"]');
  await page.waitForSelector('#moves .move.current[data-path="0.0"]');
  await page.click('#moves .move[data-path="0.1"]');
  await page.waitForSelector('#moves .move.current[data-path="0.1"]');

  await page.click('#promote');
  await page.waitForFunction(() => document.querySelector('#moves .move.current').dataset.path === '0.0');
  const promoted = await page.textContent('#moves .move.current .san');
  assert.equal((await mainLineTexts(page))[1], promoted);
  assert.equal(promoted, other.text);
  assert.notEqual(promoted, main[1]);
  assert.equal(await page.locator('#moves .variation .move').count(), 1, 'the old main move is now the variation');

  await page.click('#moves .variation .move');
  await page.click('#delete-variation');
  await page.waitForFunction(() => document.querySelectorAll('#moves .variation').length === 0);
  assert.equal((await mainLineTexts(page)).length, 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('live analysis: lines with scores and principal variations, the arrow, stop', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  await page.selectOption('#lines', '2');
  await page.waitForSelector('#book .book-move');
  const bookMoves = await page.locator('#book .book-move').count();
  assert.ok(bookMoves >= 1, 'the opening book has moves for the start position');

  await page.click('#analyze-toggle');
  await page.waitForFunction(() => document.querySelectorAll('#analysis .line').length === 2, null, { timeout: 20000 });
  await page.waitForSelector('#arrows polyline');
  const score = await page.textContent('#analysis .line .score');
  assert.match(score, /^([+−]?\d+\.\d\d|.*(wins|draw).*)$/, score);
  const pv = await page.textContent('#analysis .line .pv');
  assert.match(pv, /^1\. \S+/, pv);
  assert.match(await page.textContent('#analysis-info'), /depth \d+.*nodes/);

  // Search updates, counted over two seconds: all of them, and those of the live
  // counts between completed iterations (the others bring new lines).
  const updates = await page.evaluate(() => new Promise((resolve) => {
    const info = document.querySelector('#analysis-info');
    const count = { all: 0, searching: 0 };
    const observer = new MutationObserver(() => {
      count.all += 1;
      if (info.dataset.kind === 'searching') count.searching += 1;
    });
    observer.observe(info, { childList: true, characterData: true, subtree: true });
    setTimeout(() => { observer.disconnect(); resolve(count); }, 2000);
  }));
  console.log(`search updates shown: ${(updates.all / 2).toFixed(1)} a second, `
    + `${(updates.searching / 2).toFixed(1)} of them live counts between iterations`);
  assert.match(await page.textContent('#analysis-info'), /depth \d+.*nodes/);

  // A click is answered while the engine searches.
  const position = await shownPosition(page);
  const from = position.legal[0].from;
  const latency = await page.evaluate((square) => new Promise((resolve) => {
    const cell = document.querySelector(`#board [data-square="${square}"]`);
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (cell.classList.contains('selected')) {
        observer.disconnect();
        resolve(performance.now() - t0);
      }
    });
    observer.observe(cell, { attributes: true });
    cell.click();
  }), from);
  console.log(`click answered while the engine searches in ${latency.toFixed(1)} ms`);

  // Moving on restarts the analysis for the new position.
  const targets = position.legal.filter((m) => m.from === from);
  await page.click(`#board [data-square="${targets[0].to}"]`);
  await page.waitForFunction((f) => document.querySelector('#fen').value !== f, position.fen);
  await page.waitForFunction(() => /^1\.\.\. /.test(document.querySelector('#analysis .line .pv')?.textContent || ''), null, { timeout: 20000 });

  await page.click('#analyze-toggle');
  await page.waitForFunction(() => document.querySelectorAll('#arrows polyline').length === 0);
  assert.equal(await page.textContent('#analyze-toggle'), 'Start analysis');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a book move is played by clicking it, and FEN out follows the board', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  await page.waitForSelector('#book .book-move');
  const before = await fen(page);
  await page.click('#book .book-move');
  await page.waitForFunction((f) => document.querySelector('#fen').value !== f, before);
  assert.equal(await page.locator('#moves .move').count(), 1);
  const position = await shownPosition(page);
  assert.equal(position.side, 'black');
  await clickMove(page, position.legal[0], position.legal);
  assert.equal(await page.locator('#moves .move').count(), 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an ambiguous capture is chosen by clicking a piece it takes', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  await page.click('#io summary');
  // The king on h4 reaches g1 by two routes taking different men.
  await page.fill('#fen', 'W:WKh4:Be5,g5,c7,b8,f2');
  await page.click('#set-fen');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 6);
  const position = await shownPosition(page);
  assert.equal(position.legal.length, 2);
  const [first, second] = position.legal;
  assert.equal(first.to, second.to);
  await page.click(`#board [data-square="${first.from}"]`);
  await page.click(`#board [data-square="${first.to}"]`);
  await page.waitForSelector('#chooser .choice');
  assert.equal(await page.locator('#chooser .choice:not(.cancel)').count(), 2);
  assert.equal(await page.locator('#arrows polyline.choice').count(), 2, 'both routes drawn');
  const only = second.captured.find((s) => !first.captured.includes(s));
  assert.equal(await page.locator(`#board [data-square="${only}"].capturable`).count(), 1);
  await page.click(`#board [data-square="${only}"]`);
  await page.waitForSelector('#moves .move');
  assert.equal(await page.textContent('#moves .move .san'), second.text);
  assert.equal(await page.isVisible('#chooser'), false);
  // A comment on the move shows in the list.
  await page.fill('#comment', 'the long way round');
  await page.press('#comment', 'Enter');
  await page.waitForSelector('#moves .comment');
  assert.equal(await page.textContent('#moves .comment'), 'the long way round');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a piece dragged onto a target square is played; dropped elsewhere it goes back', async () => {
  const page = await openPage(env);
  await page.click('#mode-analysis');
  const position = await shownPosition(page);
  const center = async (square) => {
    const box = await page.locator(`#board [data-square="${square}"]`).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const drag = async (from, to) => {
    const [x0, y0] = await center(from);
    const [x1, y1] = await center(to);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x1, y1, { steps: 8 });
    await page.mouse.up();
  };
  const move = position.legal[0];
  // Onto a square no move reaches: nothing is played.
  const empty = position.board.findIndex((p, i) => p === null && !position.legal.some((m) => m.to === i + 1)) + 1;
  await drag(move.from, empty);
  assert.equal(await page.locator('#moves .move').count(), 0);
  assert.equal(await page.locator('.piece.ghost').count(), 0);
  await drag(move.from, move.to);
  await page.waitForSelector('#moves .move');
  assert.equal(await page.textContent('#moves .move .san'), move.text);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
