// Review: the evaluation chart of a game where White gives a man away, the
// blunder marked on the move list with the better move, a point clicked to go there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage } from './harness.mjs';
import { REVIEWED_GAME } from './games.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

test('the review chart and the blunder marked with the better move', async () => {
  const page = await openPage(env);
  await page.click('#io summary');
  await page.fill('#pdn-text', REVIEWED_GAME.pdn);
  await page.click('#load-pdn');
  await page.waitForSelector('#moves .move');
  const plies = await page.locator('#moves > .move').count();
  await page.click('#mode-review');
  await page.selectOption('#review-time', 'nodes=20000');
  await page.click('#review-start');
  await page.waitForSelector('#chart .point', { timeout: 60000 });
  assert.equal(await page.locator('#chart .point').count(), plies, 'one point a move');
  assert.match(await page.textContent('#review-progress'), /reviewed/);

  const blunder = page.locator(`#chart .point.blunder[data-ply="${REVIEWED_GAME.blunderPly}"]`);
  assert.equal(await blunder.count(), 1, 'the blunder is marked on the chart');
  const marked = page.locator('#moves .move .mark.blunder');
  assert.ok(await marked.count() >= 1);
  const path = Array(REVIEWED_GAME.blunderPly).fill('0').join('.');
  const move = page.locator(`#moves .move[data-path="${path}"]`);
  assert.equal(await move.locator('.mark').textContent(), '??');
  assert.match(await move.getAttribute('title'), /^better: \S+/);
  assert.match(await page.textContent('#review-marks'), /\?\?.* better \S+/);

  // A point clicked goes to the position after that move.
  await page.click('#chart .point[data-ply="1"]');
  await page.waitForSelector('#moves .move.current[data-path="0"]');
  await blunder.click();
  await page.waitForSelector(`#moves .move.current[data-path="${path}"]`);
  assert.match(await page.textContent('#review-current'), /\?\?.*better \S+/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
