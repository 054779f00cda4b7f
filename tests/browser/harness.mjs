// The browser tests' harness: starts `damas web` on a free port, opens its page in
// Chromium (the system's, driven by playwright-core; nothing is downloaded), and
// helpers that act as a player would: clicking squares and buttons.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Starts `damas web --port 0` and reads the address it prints.
export async function startServer(extra = []) {
  const binary = process.env.DAMAS_BIN || path.join(ROOT, 'target/release/damas');
  const child = spawn(binary, ['web', '--port', '0', '--hash', '16', ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no address printed: ${seen}`)), 30000);
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /damas web: (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`damas web exited (${code}) before printing its address: ${seen}`));
    });
  });
  child.stdout.resume();
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function launchBrowser() {
  // Pages answered by the test itself (DAMAS_WEB_ASSETS) count as public ones, which
  // Chromium keeps from opening the loopback's WebSocket unless told otherwise.
  const local = process.env.DAMAS_WEB_ASSETS ? ['--disable-features=LocalNetworkAccessChecks'] : [];
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...local],
  });
}

// A server and a browser for one test file; `close` ends both.
export async function setup() {
  const server = await startServer();
  const browser = await launchBrowser();
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}

// Opens the page and waits until its first position is shown. Errors the page
// throws are collected in `page.errors` (each test asserts there are none).
export async function openPage(env, viewport = DESKTOP) {
  const context = await env.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.errors = [];
  if (process.env.DAMAS_WEB_ASSETS) await serveAssetsFrom(page, process.env.DAMAS_WEB_ASSETS);
  page.on('pageerror', (error) => page.errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(message.text());
  });
  await page.goto(env.server.url);
  await page.waitForSelector('body[data-ready="1"]');
  return page;
}

// Serves the page's files from `dir` instead of those built into the binary, so
// an edited page is tried without rebuilding (DAMAS_WEB_ASSETS=src/web/assets).
async function serveAssetsFrom(page, dir) {
  const types = { html: 'text/html', js: 'text/javascript', css: 'text/css' };
  await page.route(/\/(app\.js|style\.css)?$/, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1) || 'index.html';
    const body = await readFile(path.resolve(ROOT, dir, name), 'utf8');
    await route.fulfill({ body, contentType: types[name.split('.').pop()] });
  });
}

// The server's answer for the position the page shows (from its FEN box).
export async function shownPosition(page) {
  return page.evaluate(async () => {
    const fen = document.querySelector('#fen').value;
    const variant = document.querySelector('#variant').value;
    const response = await fetch('/api/position', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant, start: fen, moves: [] }),
    });
    return response.json();
  });
}

export async function post(page, url, body) {
  return page.evaluate(async ([u, b]) => {
    const response = await fetch(u, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(b),
    });
    return { status: response.status, body: await response.json() };
  }, [url, body]);
}

export async function fen(page) {
  return page.inputValue('#fen');
}

// Plays `move` (a legal-move record) by clicking its piece and its target, and
// the path in the chooser when the capture is ambiguous; waits for the new position.
export async function clickMove(page, move, legal = [move]) {
  const before = await fen(page);
  await page.click(`#board [data-square="${move.from}"]`);
  await page.click(`#board [data-square="${move.to}"]`);
  const twins = legal.filter((m) => m.from === move.from && m.to === move.to);
  if (twins.length > 1) {
    await page.locator('#chooser .choice').nth(twins.indexOf(move)).click();
  }
  await page.waitForFunction((old) => document.querySelector('#fen').value !== old, before);
}

// Plays the first legal move of the shown position by clicking.
export async function clickFirstLegal(page, which = 0) {
  const position = await shownPosition(page);
  const move = position.legal[Math.min(which, position.legal.length - 1)];
  await clickMove(page, move, position.legal);
  return move;
}

// Adds a time control to the select (the setup's list has none quick enough for a
// test) and chooses it.
export async function chooseTime(page, time) {
  await page.evaluate((t) => {
    const select = document.querySelector('#time');
    const option = document.createElement('option');
    option.value = t;
    option.textContent = t;
    select.append(option);
  }, time);
  await page.selectOption('#time', time);
}

// Does `act` and waits until the new game it starts is shown.
export async function untilNewGame(page, act) {
  const game = await page.getAttribute('body', 'data-game');
  await act();
  await page.waitForFunction((old) => document.body.dataset.game !== old, game);
}

// Chooses the variant and waits until its new game is shown.
export async function selectVariant(page, variant) {
  await untilNewGame(page, () => page.selectOption('#variant', variant));
}

// Clicks "New game" and waits until the new game is shown.
export async function clickNewGame(page) {
  await untilNewGame(page, () => page.click('#new-game'));
}
