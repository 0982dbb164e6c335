// Measures the viewer on a recording (docs/viewer.md, "Performance"): the time from navigation
// to the first frame drawn and the plots drawn, the time to show steps not loaded yet after a
// scrub, and playback (renders per second, milliseconds per frame update, waits for chunks) in
// headless Chromium. Not part of ctest: run it by hand on a big recording.
// Usage: node perf.mjs ATOLL_BINARY RECORDING [--gpu]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [atoll, recording] = process.argv.slice(2);
if (!atoll || !recording) {
  console.error('usage: node perf.mjs ATOLL_BINARY RECORDING [--gpu]');
  process.exit(2);
}
const gpu = process.argv.includes('--gpu');
const work = mkdtempSync(join(tmpdir(), 'atoll-viewer-perf-'));
const server = spawn(atoll, ['view', recording, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const address = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`atoll view exited ${code}`)));
});
const args = ['--headless', '--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ...(gpu ? [] : ['--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'])];
const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath: process.env.ATOLL_CHROMIUM ?? '/usr/bin/chromium', headless: true, args,
  viewport: { width: 1280, height: 800 },
});
try {
  const page = context.pages()[0] ?? await context.newPage();
  const t0 = Date.now();
  await page.goto(address);
  await page.waitForFunction(() => window.atollViewer && (window.atollViewer.ready || window.atollViewer.error), null, { timeout: 120000, polling: 20 });
  const openMs = Date.now() - t0;
  const hook = await page.evaluate(() => ({ ready: window.atollViewer.ready, error: window.atollViewer.error,
    loadMs: window.atollViewer.loadMs, phases: window.atollViewer.loadPhases, bodies: window.atollViewer.bodyCount, frames: window.atollViewer.frameCount }));
  if (!hook.ready) throw new Error(hook.error);
  // Scrubs to steps not loaded yet: the time until each is shown (its chunk fetched, the frame
  // applied and rendered).
  const scrubs = await page.evaluate(async () => {
    const v = window.atollViewer, last = v.frameCount - 1, out = [];
    for (const k of [last, Math.floor(last / 2), Math.floor(last / 4), Math.floor((3 * last) / 4)]) {
      const t = await v.timedSeek(k);
      out.push({ step: t.step, inMs: Math.round(t.inMs), renderMs: Math.round(t.renderMs) });
    }
    return out;
  });
  // Seeking within what is loaded (apply + render).
  const seekLoaded = await page.evaluate(async () => {
    const v = window.atollViewer, base = Math.floor(v.frameCount / 4);
    let inMs = 0, renderMs = 0;
    for (let k = 0; k < 10; ++k) {
      const t = await v.timedSeek(base + 1 + (k % 4));
      inMs += t.inMs; renderMs += t.renderMs;
    }
    return { inMs: +(inMs / 10).toFixed(1), renderMs: +(renderMs / 10).toFixed(0) };
  });
  const playback = await page.evaluate(() => window.atollViewer.measurePlayback(3000));
  const cache = await page.evaluate(() => window.atollViewer.cache());
  const phase = (name) => Math.round(hook.phases[name]);
  console.log(JSON.stringify({ bodies: hook.bodies, frames: hook.frames, openMs,
    firstFrameShownMs: phase('firstFrameShownMs'), plotsDrawnMs: phase('plotsDrawnMs'),
    phases: Object.fromEntries(Object.entries(hook.phases).map(([k, v]) => [k, Math.round(v)])),
    scrubs, seekLoaded,
    playbackRendersPerSecond: +playback.fps.toFixed(1), framesAdvanced: playback.frames, stalls: playback.stalls,
    updateMsPerFrame: +playback.updateMsPerFrame.toFixed(2), cache, gl: gpu ? 'default' : 'swiftshader' }));
} finally {
  await context.close();
  server.kill('SIGINT');
  rmSync(work, { recursive: true, force: true });
}
