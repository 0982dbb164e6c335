// Measures the viewer on a recording (docs/viewer.md, "Performance"): the time from navigation
// to the first frame drawn, and playback (renders per second, milliseconds per frame update)
// in headless Chromium. Not part of ctest: run it by hand on a big recording.
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
  const playback = await page.evaluate(() => window.atollViewer.measurePlayback(3000));
  const seek = await page.evaluate(() => {
    const t = performance.now();
    for (let k = 0; k < 100; ++k) window.atollViewer.seek((k * 37) % window.atollViewer.frameCount);
    return (performance.now() - t) / 100;
  });
  console.log(JSON.stringify({ bodies: hook.bodies, frames: hook.frames, openMs, pageLoadMs: Math.round(hook.loadMs), phases: Object.fromEntries(Object.entries(hook.phases).map(([k, v]) => [k, Math.round(v)])),
    playbackRendersPerSecond: +playback.fps.toFixed(1), framesAdvanced: playback.frames,
    updateMsPerFrame: +playback.updateMsPerFrame.toFixed(2), seekAndRenderMs: +seek.toFixed(1), gl: gpu ? 'default' : 'swiftshader' }));
} finally {
  await context.close();
  server.kill('SIGINT');
  rmSync(work, { recursive: true, force: true });
}
