// The three modes at desktop and phone sizes: each shows its board and panel
// within the screen's width. With DAMAS_SCREENSHOTS=DIR set, each view is also
// saved as DIR/web-MODE-SIZE.png (the pictures of docs/web.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, openPage, clickFirstLegal, clickNewGame, DESKTOP, PHONE, ROOT } from './harness.mjs';
import { REVIEWED_GAME } from './games.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

const OUT = process.env.DAMAS_SCREENSHOTS ? path.resolve(ROOT, process.env.DAMAS_SCREENSHOTS) : null;

async function shot(page, name) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const viewport = page.viewportSize();
  assert.ok(width <= viewport.width, `${name}: the page is ${width} px wide in a ${viewport.width} px screen`);
  const board = await page.locator('#board').boundingBox();
  assert.ok(board.width > 200 && board.x + board.width <= viewport.width, `${name}: board ${JSON.stringify(board)}`);
  if (OUT) await page.screenshot({ path: path.join(OUT, `web-${name}.png`), fullPage: viewport.width < 600 });
}

async function waitForTurn(page) {
  await page.waitForFunction(() => document.querySelector('#status').textContent.includes('your move'), null, { timeout: 30000 });
}

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`play, analysis and review on a ${size} screen`, async () => {
    const page = await openPage(env, viewport);
    // Play: a few moves against the engine, a piece picked to show its targets.
    // The quickest time control offered (a fraction of a second a move).
    await page.selectOption('#time', { index: 0 });
    await page.selectOption('#strength', '3');
    await clickNewGame(page);
    for (let i = 0; i < 4; i += 1) {
      await waitForTurn(page);
      await clickFirstLegal(page, i % 3);
    }
    await waitForTurn(page);
    await page.click('#board .sq.movable');
    await page.waitForSelector('#board .sq.target');
    await shot(page, `play-${size}`);

    // Analysis: the reviewed game loaded, a position in the middle, three lines.
    await page.click('#io summary');
    await page.fill('#pdn-text', REVIEWED_GAME.pdn);
    await page.click('#load-pdn');
    await page.waitForSelector('#moves .move');
    await page.click('#io summary');
    await page.click(`#moves .move[data-path="${REVIEWED_GAME.analysisPath}"]`);
    await page.click('#analyze-toggle');
    await page.waitForFunction(() => document.querySelectorAll('#analysis .line').length === 3, null, { timeout: 20000 });
    await page.waitForSelector('#arrows polyline', { timeout: 20000 });
    // Deep enough to show settled lines (the search goes on meanwhile).
    await page.waitForFunction(() => /depth \d\d/.test(document.querySelector('#analysis-info').textContent), null, { timeout: 20000 });
    await shot(page, `analysis-${size}`);
    await page.click('#analyze-toggle');

    // Review: the chart and the marked moves.
    await page.click('#mode-review');
    await page.selectOption('#review-time', 'nodes=20000');
    await page.click('#review-start');
    await page.waitForSelector('#chart .point', { timeout: 60000 });
    await page.click(`#chart .point[data-ply="${REVIEWED_GAME.blunderPly}"]`);
    await page.waitForSelector('#moves .move.current .mark');
    await shot(page, `review-${size}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
