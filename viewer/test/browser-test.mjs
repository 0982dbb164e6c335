// Browser test of the web viewer (docs/viewer.md), run by ctest (label viewer): records the demo
// with `atoll run demo --record --record-contacts`, serves it with `atoll view --port 0`, and
// drives headless Chromium (Debian's /usr/bin/chromium through playwright-core; no browser is
// downloaded). The served page loads in small chunks here (?chunkBytes=…), so that showing a
// step goes through loading it on demand. Checks: the page fetches the header, the figures and
// frames by range (never the whole recording), no console errors, a canvas that is not blank,
// a named body drawn where
// its recorded position projects at step 0 and at the last step (the projection computed here
// from the recording, read independently of the viewer, and the page's camera), plots with
// steps + 1 points, a click that selects the body, the contacts toggle, and the --html file
// opening from file:// without errors, and soft bodies (a rope and a cloth) drawn from the
// recorded vertices: the cloth as a mesh, the rope as lines, their buffers equal to the file's
// at the last step and the cloth's colour at one of its vertices.
// Usage: node browser-test.mjs ATOLL_BINARY [--screenshots DIR]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const atoll = process.argv[2];
const shotsAt = process.argv.indexOf('--screenshots');
const screenshotDir = shotsAt > 0 ? process.argv[shotsAt + 1] : null;
const CHROMIUM = process.env.ATOLL_CHROMIUM ?? '/usr/bin/chromium';
const BODY = 'ball_pins'; // rolls from the start into the pins: visible at step 0 and at the end
if (!atoll || !existsSync(atoll)) {
  console.error('usage: node browser-test.mjs ATOLL_BINARY [--screenshots DIR]');
  process.exit(2);
}

let passed = 0, failed = 0;
function check(ok, what, detail = '') {
  if (ok) { passed += 1; console.log(`ok    ${what}`); }
  else { failed += 1; console.log(`FAIL  ${what}${detail ? `: ${detail}` : ''}`); }
}

// The recording, read here without the viewer's code (docs/recording-format.md, version 3).
function readRecordingForTest(path) {
  const data = readFileSync(path);
  if (data.toString('latin1', 0, 8) !== 'ATOLLREC') throw new Error(`${path}: no magic`);
  const version = data.readUInt32LE(8);
  const headerBytes = data.readUInt32LE(12);
  const header = JSON.parse(data.toString('utf8', 16, 16 + headerBytes));
  const n = header.bodies.length, c = (header.constraints ?? []).length;
  const soft = header.soft_bodies ?? [];
  // The version-2 frame, then the soft bodies' flags bytes (padded to 4) and their vertices.
  const softFlagsAt = Math.ceil((29 * n + c) / 4) * 4 + 4 * header.stats.length + 8;
  const vertexAt = [];
  let end = softFlagsAt + Math.ceil(soft.length / 4) * 4;
  for (const sb of soft) { vertexAt.push(end); end += 12 * sb.vertex_count; }
  const frameBytes = soft.length === 0 ? softFlagsAt : end;
  const pose = (k, i) => {
    const o = 16 + headerBytes + k * frameBytes + 28 * i;
    return [0, 1, 2].map((a) => data.readFloatLE(o + 4 * a));
  };
  const softPositions = (k, s) => {
    const o = 16 + headerBytes + k * frameBytes + vertexAt[s];
    return Array.from({ length: 3 * soft[s].vertex_count }, (_, i) => data.readFloatLE(o + 4 * i));
  };
  return { version, header, frameCount: header.steps + 1, frameBytes, pose, softPositions };
}

// Page coordinates of world point p through column-major view and projection matrices.
function project(p, camera) {
  const mul = (m, v) => [0, 1, 2, 3].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
  const clip = mul(camera.projection, mul(camera.view, [...p, 1]));
  const { left, top, width, height } = camera.rect;
  return [left + ((clip[0] / clip[3] + 1) / 2) * width, top + ((1 - clip[1] / clip[3]) / 2) * height];
}

const launchArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

const work = mkdtempSync(join(tmpdir(), 'atoll-viewer-test-'));
let server = null, context = null;
const t0 = Date.now();
try {
  const recPath = join(work, 'demo.rec');
  execFileSync(atoll, ['run', 'demo', '--quiet', '--record', recPath, '--record-contacts']);
  const rec = readRecordingForTest(recPath);
  check(rec.version === 3, 'the demo is recorded in format version 3');

  // Serve it on a free port.
  server = spawn(atoll, ['view', recPath, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const address = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`atoll view printed no address: ${out}`)), 10000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
    server.on('exit', (code) => reject(new Error(`atoll view exited ${code}: ${out}`)));
  });
  check(/^http:\/\/127\.0\.0\.1:\d+\/$/.test(address), `atoll view --port 0 prints its address (${address})`);

  context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: CHROMIUM, headless: true, args: launchArgs, viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  // Chunks of 8 frames, at most 4 of them held: a scrub to the last step loads it on demand.
  const frameBytes = rec.frameBytes;
  await page.goto(`${address}?chunkBytes=${8 * frameBytes}&cacheBytes=${4 * 8 * frameBytes}`);
  await page.waitForFunction(() => window.atollViewer && (window.atollViewer.ready || window.atollViewer.error), null, { timeout: 20000 });
  const ready = await page.evaluate(() => window.atollViewer.ready);
  check(ready, 'the page loads the recording', await page.evaluate(() => window.atollViewer.error ?? ''));
  const hook = await page.evaluate(() => ({ frameCount: window.atollViewer.frameCount, loadMs: window.atollViewer.loadMs }));
  check(hook.frameCount === rec.frameCount, `frameCount ${hook.frameCount} = steps + 1 = ${rec.frameCount}`);

  // The canvas is not blank: the luminance of its pixels varies.
  const pixels = async () => page.evaluate(() => {
    const gl = document.querySelector('#view canvas');
    const c = document.createElement('canvas');
    c.width = gl.width; c.height = gl.height;
    const g = c.getContext('2d');
    g.drawImage(gl, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let sum = 0, sum2 = 0; const colors = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) {
      const l = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
      sum += l; sum2 += l * l; colors.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    }
    const count = d.length / (4 * 7);
    return { variance: sum2 / count - (sum / count) ** 2, colors: colors.size };
  });
  const stats = await pixels();
  check(stats.variance > 50 && stats.colors > 50, `the canvas is not blank (luminance variance ${stats.variance.toFixed(0)}, ${stats.colors} colours)`);

  // Step 0 and the last step: the body is where its recorded position projects, and a click
  // there selects it.
  const last = rec.frameCount - 1;
  const positions = [];
  for (const k of [0, last]) {
    await page.evaluate((step) => window.atollViewer.seek(step), k);
    const camera = await page.evaluate(() => window.atollViewer.camera());
    const expected = project(rec.pose(k, rec.header.bodies.findIndex((b) => b.name === BODY)), camera);
    const shown = await page.evaluate((name) => window.atollViewer.projectBody(name), BODY);
    const error = Math.hypot(shown[0] - expected[0], shown[1] - expected[1]);
    check(error < 1, `step ${k}: ${BODY} projects to [${expected.map((v) => v.toFixed(1))}] (page: ${error.toFixed(2)} px off)`);
    positions.push(expected);
    await page.mouse.click(expected[0], expected[1]);
    const selected = await page.evaluate(() => window.atollViewer.selectedBody());
    check(selected?.name === BODY && selected.text.includes(BODY),
      `step ${k}: a click at that pixel selects ${BODY} (the body drawn there)`, JSON.stringify(selected));
    // The selected body is drawn yellow: the pixel there is the body's.
    const [r, g, b] = await page.evaluate(([x, y]) => window.atollViewer.pixelAt(x, y), expected);
    check(r > 140 && g > 140 && b < 0.75 * Math.min(r, g),
      `step ${k}: the pixel at the projected position shows the selected (yellow) body: rgb(${r}, ${g}, ${b})`);
    if (screenshotDir) {
      // Step 0 as it opens; the last step with the body selected (its panel shown).
      if (k === 0) await page.evaluate(() => window.atollViewer.pick(-1, -1));
      await page.screenshot({ path: join(screenshotDir, k === 0 ? 'viewer-step0.png' : 'viewer-stepN.png') });
      if (k === 0) await page.mouse.click(expected[0], expected[1]);
    }
  }
  const moved = Math.hypot(positions[1][0] - positions[0][0], positions[1][1] - positions[0][1]);
  check(moved > 20, `${BODY} moves on screen between step 0 and step ${last} (${moved.toFixed(0)} px)`);

  // Loading by range: the header and figures, frames in chunks; the cache stays bounded.
  const cache = await page.evaluate(() => window.atollViewer.cache());
  check(cache.chunkFrames === 8 && cache.chunks <= cache.maxChunks && cache.maxChunks === 4,
    `frames load in chunks of 8, at most 4 held (${cache.chunks} held, ${cache.bytesFetched} bytes fetched)`);
  check(requested.includes('/header') && requested.includes('/stats') && requested.includes('/frames') &&
    !requested.includes('/recording'), 'the page fetches /header, /stats and /frames, not /recording',
    [...new Set(requested)].join(' '));

  // Plots: steps + 1 points in every series.
  const counts = await page.evaluate(() => window.atollViewer.plotPointCounts());
  const all = Object.values(counts).flatMap((s) => Object.values(s));
  check(Object.keys(counts).length === 4 && all.length >= 4 && all.every((n) => n === rec.frameCount),
    `every plot series has steps + 1 = ${rec.frameCount} points`, JSON.stringify(counts));

  // Contacts toggle: points drawn at a step with contacts.
  await page.click('#show-contacts');
  await page.evaluate((k) => window.atollViewer.seek(k), Math.floor(last / 2));
  const contacts = await page.evaluate(() => window.atollViewer.contactsShown());
  check(contacts > 0, `the contact toggle shows the step's contacts (${contacts})`);

  // Playback runs.
  const playback = await page.evaluate(() => window.atollViewer.measurePlayback(500));
  check(playback.frames > 0, `playback advances through chunks loaded ahead (${playback.frames} steps in 0.5 s, ` +
    `${playback.stalls} frames waited for a chunk, ${playback.fps.toFixed(0)} renders/s in software GL)`);
  check(errors.length === 0, 'no console errors on the served page', errors.join(' | '));

  // The self-contained file opens from file://.
  const html = join(work, 'demo.html');
  execFileSync(atoll, ['view', '--html', html, recPath]);
  const filePage = await context.newPage();
  const fileErrors = [];
  filePage.on('console', (m) => { if (m.type() === 'error') fileErrors.push(m.text()); });
  filePage.on('pageerror', (e) => fileErrors.push(String(e)));
  await filePage.goto(pathToFileURL(html).href);
  await filePage.waitForFunction(() => window.atollViewer && (window.atollViewer.ready || window.atollViewer.error), null, { timeout: 20000 });
  const fileHook = await filePage.evaluate(() => ({ ready: window.atollViewer.ready, frameCount: window.atollViewer.frameCount }));
  check(fileHook.ready && fileHook.frameCount === rec.frameCount, 'the --html file loads from file://');
  check(fileErrors.length === 0, 'no console errors from the --html file', fileErrors.join(' | '));

  // Every shape part type is drawn where its body is: a click on each selects it.
  const shapesRec = join(work, 'shapes.rec');
  const shapesHtml = join(work, 'shapes.html');
  execFileSync(atoll, ['run', new URL('./all-shapes.json', import.meta.url).pathname, '--quiet', '--record', shapesRec]);
  execFileSync(atoll, ['view', '--html', shapesHtml, shapesRec]);
  const shapesPage = await context.newPage();
  shapesPage.on('console', (m) => { if (m.type() === 'error') fileErrors.push(m.text()); });
  await shapesPage.goto(pathToFileURL(shapesHtml).href);
  await shapesPage.waitForFunction(() => window.atollViewer && (window.atollViewer.ready || window.atollViewer.error), null, { timeout: 20000 });
  const types = await shapesPage.evaluate(() => window.atollViewer.partTypes());
  check(JSON.stringify(types) === JSON.stringify(['box', 'capsule', 'convex_hull', 'cylinder', 'heightfield', 'mesh', 'sphere']),
    'every part type has its instanced mesh', JSON.stringify(types));
  const targets = { a_box: [0, 0, 0], a_sphere: [0, 0, 0], a_capsule: [0, 0, 0], a_cylinder: [0, 0, 0],
    a_hull: [0, 0, 0], a_compound: [-0.6, 0, 0], a_scaled_hull: [0, 0, 0], a_mesh: [1, 0, 1],
    a_heightfield: [-1.5, 0, 1.5] };
  for (const [name, point] of Object.entries(targets)) {
    const [x, y] = await shapesPage.evaluate(([n, p]) => window.atollViewer.projectBodyPoint(n, p), [name, point]);
    await shapesPage.mouse.click(x, y);
    const picked = await shapesPage.evaluate(() => window.atollViewer.selectedBody()?.name ?? null);
    check(picked === name, `${name} is drawn where it is: a click there selects it`, `picked ${picked}`);
  }
  if (screenshotDir) {
    await shapesPage.evaluate(() => window.atollViewer.pick(-1, -1));
    await shapesPage.screenshot({ path: join(screenshotDir, 'viewer-shapes.png') });
  }

  // Soft bodies: a rope hanging from its first vertex and a cloth held by its corners.
  const softScene = join(work, 'soft.json');
  writeFileSync(softScene, JSON.stringify({
    settings: { steps: 20 },
    bodies: [{ name: 'floor', shape: { type: 'box', half_extent: [3, 0.5, 3] }, position: [0, -0.5, 0], motion: 'static' }],
    soft_bodies: [
      { name: 'rope', type: 'rope', from: [-1.5, 1.5, 0], to: [-0.5, 1.5, 0], segments: 10, pinned: 'first' },
      { name: 'sheet', type: 'cloth', center: [0.8, 1, 0], size: [1.2, 1.2], resolution: [8, 8], pinned: 'corners' },
    ],
  }));
  const softRec = join(work, 'soft.rec');
  const softHtml = join(work, 'soft.html');
  execFileSync(atoll, ['run', softScene, '--quiet', '--record', softRec]);
  execFileSync(atoll, ['view', '--html', softHtml, softRec]);
  const soft = readRecordingForTest(softRec);
  const softPage = await context.newPage();
  softPage.on('console', (m) => { if (m.type() === 'error') fileErrors.push(m.text()); });
  softPage.on('pageerror', (e) => fileErrors.push(String(e)));
  await softPage.goto(pathToFileURL(softHtml).href);
  await softPage.waitForFunction(() => window.atollViewer && (window.atollViewer.ready || window.atollViewer.error), null, { timeout: 20000 });
  const softLast = soft.frameCount - 1;
  await softPage.evaluate((k) => window.atollViewer.seek(k), softLast);
  const drawn = await softPage.evaluate(() => window.atollViewer.softBodies());
  check(JSON.stringify(drawn.map((b) => [b.name, b.mode, b.visible])) === JSON.stringify([['rope', 'lines', true], ['sheet', 'mesh', true]]),
    'soft bodies: the cloth drawn as a mesh, the rope as lines', JSON.stringify(drawn.map((b) => [b.name, b.mode, b.visible])));
  const same = drawn.every((b, s) => JSON.stringify(b.positions) === JSON.stringify(soft.softPositions(softLast, s)));
  check(same && drawn.length === 2, `soft bodies: the vertex buffers drawn at step ${softLast} are the recording's`);
  // A vertex inside the cloth (row 3, column 3 of 8 × 8) is drawn in the soft bodies' lime.
  const [sx, sy] = await softPage.evaluate(() => window.atollViewer.projectSoftVertex('sheet', 3 * 8 + 3));
  const [sr, sg, sb] = await softPage.evaluate(([x, y]) => window.atollViewer.pixelAt(x, y), [sx, sy]);
  check(sg > 100 && sg > 1.15 * sr && sg > 1.5 * sb, `soft bodies: the cloth is drawn where its vertex projects, in lime: rgb(${sr}, ${sg}, ${sb})`);
  check(fileErrors.length === 0, 'no console errors from the shapes and soft body pages', fileErrors.join(' | '));
  console.log(`viewer load ${hook.loadMs.toFixed(0)} ms; test ${((Date.now() - t0) / 1000).toFixed(1)} s`);
} catch (e) {
  check(false, 'the test ran to the end', e.stack ?? String(e));
} finally {
  if (context) await context.close();
  if (server) server.kill('SIGINT');
  rmSync(work, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
