// The viewer's recording reader (viewer/src/recording.js) on real files: version 3 written by
// `atoll run --record --record-contacts` without soft bodies (version 2's bytes) and with a rope
// and a cloth, version 2 (the same file with its version number), a version-1 file made by
// hand, files cut short or damaged (refused with a reason), and a file still arriving (partial
// frames, no contacts). Also the served reader (viewer/src/frames.js) against `atoll view`: the
// header and figures first, frames, contacts and soft body vertices in chunks equal to the
// file's, a bounded cache.
// Run by ctest (viewer_reader) with node's test runner: node --test recording.test.mjs, with
// ATOLL_CLI naming the atoll program.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readRecording, frameLayout, motionOfFlags, softBodyTopology, FLAG_ADDED, SOFT_ACTIVE, SOFT_ADDED,
} from '../src/recording.js';
import { RemoteRecording, wholeRecording } from '../src/frames.js';

const atoll = process.env.ATOLL_CLI;

function record(args, scene = 'tower10') {
  const dir = mkdtempSync(join(tmpdir(), 'atoll-reader-test-'));
  try {
    const file = join(dir, 'r.rec');
    execFileSync(atoll, ['run', scene, '--quiet', '--steps', '5', '--record', file, ...args]);
    const bytes = readFileSync(file);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A rope of 9 vertices hanging from its first and a 6 × 5 cloth falling onto a floor.
const SOFT_SCENE = {
  settings: { steps: 10 },
  bodies: [{ name: 'floor', shape: { type: 'box', half_extent: [5, 0.5, 5] }, position: [0, -0.5, 0], motion: 'static' }],
  soft_bodies: [
    { name: 'rope', type: 'rope', from: [0, 2, 0], to: [1, 2, 0], segments: 8, pinned: 'first', radius: 0.03 },
    { name: 'sheet', type: 'cloth', center: [-1.5, 0.5, 0], size: [1, 0.8], resolution: [6, 5] },
  ],
};

// Records SOFT_SCENE (10 steps); returns { buffer, summary } (summary: `atoll run --summary`).
function recordSoft(args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'atoll-reader-test-'));
  try {
    const scene = join(dir, 'soft.json');
    writeFileSync(scene, JSON.stringify(SOFT_SCENE));
    const file = join(dir, 'r.rec');
    const summaryFile = join(dir, 's.json');
    execFileSync(atoll, ['run', scene, '--quiet', '--record', file, '--summary', summaryFile, ...args]);
    const bytes = readFileSync(file);
    return { buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      summary: JSON.parse(readFileSync(summaryFile, 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('version 3 without soft bodies, with contacts: poses, figures and contacts of any frame', { skip: !atoll }, () => {
  const buffer = record(['--record-contacts']);
  const r = readRecording(buffer);
  assert.equal(r.version, 3);
  assert.equal(r.softBodyCount, 0);
  assert.equal(r.header.soft_bodies, undefined);
  assert.equal(r.frameCount, 6);
  assert.equal(r.bodyCount, 11);
  assert.equal(r.header.bodies[0].name, 'floor');
  assert.equal(motionOfFlags(r.flags(0)[0]), 'static');
  assert.ok(r.flags(5)[10] & FLAG_ADDED);
  // The poses are views into the file, 4-byte aligned.
  assert.equal(r.poses(3).buffer, buffer);
  assert.equal(r.poses(3).byteOffset % 4, 0);
  const active = r.statNames.indexOf('active_bodies');
  const contacts = r.statNames.indexOf('contacts');
  assert.ok(active >= 0 && contacts >= 0);
  assert.equal(r.stats(5)[active], 10);
  assert.equal(r.contacts(5).length / 7, r.stats(5)[contacts]);
  assert.equal(r.contacts(0).length, 0);
  const c = r.contacts(5);
  assert.ok(Math.abs(Math.hypot(c[3], c[4], c[5]) - 1) < 1e-4, 'unit normal');
});

test('version 2 still reads: a recording without soft bodies is version 2 but for its number', { skip: !atoll }, () => {
  const buffer = record(['--record-contacts']);
  const v3 = readRecording(buffer);
  const old = buffer.slice(0);
  new DataView(old).setUint32(8, 2, true);
  const v2 = readRecording(old);
  assert.equal(v2.version, 2);
  assert.equal(v2.frameBytes, v3.frameBytes);
  assert.equal(v2.contactCount, v3.contactCount);
  for (const k of [0, 3, 5]) {
    assert.deepEqual(Array.from(v2.poses(k)), Array.from(v3.poses(k)));
    assert.deepEqual(Array.from(v2.stats(k)), Array.from(v3.stats(k)));
    assert.deepEqual(Array.from(v2.contacts(k)), Array.from(v3.contacts(k)));
  }
  // A version-2 file's frames have no soft bodies, whatever its header says.
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(old, 16, new DataView(old).getUint32(12, true))));
  header.soft_bodies = [{ name: 'x', vertex_count: 5, vertex_radius: 0, edges: [], faces: [] }];
  assert.equal(frameLayout(2, header).frameBytes, v2.frameBytes);
  assert.equal(frameLayout(2, header).softBodies.length, 0);
});

test('version 3 with soft bodies: topology, and the vertices of every frame', { skip: !atoll }, () => {
  const { buffer, summary } = recordSoft(['--record-contacts']);
  const r = readRecording(buffer);
  assert.equal(r.version, 3);
  assert.equal(r.frameCount, 11);
  assert.equal(r.softBodyCount, 2);
  const [rope, sheet] = softBodyTopology(r.header);
  assert.equal(rope.name, 'rope');
  assert.equal(rope.vertexCount, 9);
  assert.equal(rope.radius, 0.03);
  assert.deepEqual(Array.from(rope.edges), [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8]);
  assert.equal(rope.faces.length, 0);
  assert.equal(sheet.name, 'sheet');
  assert.equal(sheet.vertexCount, 30);
  assert.equal(sheet.faces.length, 3 * 2 * 5 * 4);
  assert.ok(sheet.edges.length > 0);
  // Frame 0: where the scene makes them; the rope's pinned end stays; the cloth falls.
  const rope0 = r.softPositions(0, 0);
  assert.equal(rope0.length, 27);
  assert.equal(rope0.buffer, buffer, 'a view into the file');
  assert.equal(rope0.byteOffset % 4, 0);
  for (let v = 0; v < 9; ++v) {
    assert.ok(Math.abs(rope0[3 * v] - v / 8) < 1e-6, `rope vertex ${v} x`);
    assert.equal(rope0[3 * v + 1], 2);
  }
  assert.deepEqual(Array.from(r.softPositions(10, 0).subarray(0, 3)), [0, 2, 0]);
  assert.ok(r.softPositions(10, 1)[1] < r.softPositions(0, 1)[1]);
  for (const k of [0, 10]) assert.equal(r.softFlags(k)[0] & SOFT_ADDED, SOFT_ADDED);
  assert.equal(r.softFlags(0)[1], SOFT_ADDED | SOFT_ACTIVE);
  // The last frame is the world at the end: the bounds of its vertices are the run summary's.
  for (const [s, name] of [[0, 'rope'], [1, 'sheet']]) {
    const p = r.softPositions(10, s);
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < p.length; v += 3)
      for (let a = 0; a < 3; ++a) { min[a] = Math.min(min[a], p[v + a]); max[a] = Math.max(max[a], p[v + a]); }
    assert.deepEqual([min, max], summary.soft_bodies[name].bounds, `${name}: bounds at the end`);
  }
  // The bodies and the figures before the soft bodies read as always.
  assert.equal(r.bodyCount, 1);
  assert.deepEqual(Array.from(r.poses(10).subarray(0, 3)), [0, -0.5, 0]);
  assert.equal(r.stats(10).length, r.statNames.length);
});

test('damaged version-3 soft bodies are refused with a reason', { skip: !atoll }, () => {
  const { buffer } = recordSoft();
  const r = readRecording(buffer);
  const headerBytes = new DataView(buffer).getUint32(12, true);
  const framesBegin = 16 + headerBytes;
  // Cut inside the last frame's vertices.
  assert.throws(() => readRecording(buffer.slice(0, buffer.byteLength - 5)),
    new RegExp(`^Error: ${11 * r.frameBytes - 5} bytes of frames, expected ${11 * r.frameBytes} ` +
      '\\(11 frames of 1 bodies and 2 soft bodies of 39 vertices\\)$'));
  // A flags byte with unknown bits, a padding byte that is not 0 (frame 3).
  const softAt = framesBegin + 3 * r.frameBytes + frameLayout(3, r.header).softFlagsOffset;
  const flags = new Uint8Array(buffer.slice(0));
  flags[softAt + 1] = 0x82;
  assert.throws(() => readRecording(flags.buffer),
    /^Error: frame 3: soft body 1 \("sheet"\): flags byte 130 has bits other than 0 and 1: the file is damaged$/);
  const padding = new Uint8Array(buffer.slice(0));
  padding[softAt + 3] = 1;
  assert.throws(() => readRecording(padding.buffer),
    /^Error: frame 3: soft body flags padding byte 1 is 1, not 0: the file is damaged$/);
  // Header numbers: a vertex count the file cannot hold, indices beyond the vertices.
  const withHeader = (edit) => {
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 16, headerBytes)));
    edit(header);
    let text = JSON.stringify(header);
    text += ' '.repeat((4 - (text.length % 4)) % 4);
    const out = new Uint8Array(16 + text.length + buffer.byteLength - framesBegin);
    out.set(new Uint8Array(buffer, 0, 12));
    new DataView(out.buffer).setUint32(12, text.length, true);
    out.set(new TextEncoder().encode(text), 16);
    out.set(new Uint8Array(buffer, framesBegin), 16 + text.length);
    return out.buffer;
  };
  assert.throws(() => readRecording(withHeader((h) => { h.soft_bodies[1].vertex_count = 4294967295; })),
    new RegExp(`^Error: header.soft_bodies: 4294967304 vertices in all need 51539607648 bytes per frame, the file has ${11 * r.frameBytes} bytes of frames: the file is truncated or damaged$`));
  assert.throws(() => readRecording(withHeader((h) => { h.soft_bodies[0].vertex_count = 4294967296; })),
    /^Error: header.soft_bodies\[0\].vertex_count: expected an integer from 1 to 4294967295, got 4294967296$/);
  assert.throws(() => readRecording(withHeader((h) => { h.soft_bodies[0].edges[7] = [7, 9]; })),
    /^Error: header.soft_bodies\[0\].edges\[7\]: expected 2 vertex indices below 9, got \[7,9\]$/);
  assert.throws(() => readRecording(withHeader((h) => { delete h.soft_bodies[1].faces; })),
    /^Error: header.soft_bodies\[1\].faces: required key missing or not an array$/);
  // One vertex more than the frames hold.
  assert.throws(() => readRecording(withHeader((h) => { h.soft_bodies[0].vertex_count = 10; })),
    /bytes of frames, expected \d+ \(11 frames of 1 bodies and 2 soft bodies of 40 vertices\)/);
});

test('damaged version-3 files are refused with a reason', { skip: !atoll }, () => {
  const buffer = record(['--record-contacts']);
  assert.throws(() => readRecording(buffer.slice(0, buffer.byteLength - 3)),
    /bytes of contacts, expected \d+ \(\d+ contacts\): the file is truncated or damaged/);
  const r = readRecording(buffer);
  assert.throws(() => readRecording(buffer.slice(0, buffer.byteLength - r.contactCount * 28 - 4)),
    /bytes of frames, expected \d+ \(6 frames of 11 bodies\)/);
  const future = buffer.slice(0);
  new DataView(future).setUint32(8, 4, true);
  assert.throws(() => readRecording(future), /recording format version 4, this viewer reads versions 1 to 3/);
  const text = new Uint8Array(buffer.slice(0));
  text[0] = 'X'.charCodeAt(0);
  assert.throws(() => readRecording(text.buffer), /not an Atoll recording/);
});

test('a file still arriving has its complete frames and no contacts yet', { skip: !atoll }, () => {
  const buffer = record(['--record-contacts']);
  const full = readRecording(buffer);
  const headerEnd = 16 + new DataView(buffer).getUint32(12, true);
  assert.equal(readRecording(buffer, 10), null);
  assert.equal(readRecording(buffer, headerEnd - 1), null);
  const partial = readRecording(buffer, headerEnd + 2 * full.frameBytes + 5);
  assert.equal(partial.complete, false);
  assert.equal(partial.loadedFrames, 2);
  assert.deepEqual(Array.from(partial.poses(1)), Array.from(full.poses(1)));
  assert.equal(partial.contacts(1).length, 0);
});

test('version 1 still reads', () => {
  const header = JSON.stringify({ source: 'old', dt: 0.01, steps: 1,
    shapes: [{ parts: [{ type: 'sphere', position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], radius: 0.5 }] }],
    bodies: [{ name: 's', motion: 'dynamic', shape: 0 }] });
  const padded = header + ' '.repeat((4 - ((16 + header.length) % 4)) % 4);
  const buffer = new ArrayBuffer(16 + padded.length + 2 * 32);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  bytes.set(new TextEncoder().encode('ATOLLREC'), 0);
  view.setUint32(8, 1, true);
  view.setUint32(12, padded.length, true);
  bytes.set(new TextEncoder().encode(padded), 16);
  for (let k = 0; k < 2; ++k) {
    const o = 16 + padded.length + 32 * k;
    [1, 2 - k, 3, 0, 0, 0, 1].forEach((v, i) => view.setFloat32(o + 4 * i, v, true));
    bytes[o + 28] = FLAG_ADDED | (2 << 3);
  }
  const r = readRecording(buffer);
  assert.equal(r.version, 1);
  assert.equal(r.frameCount, 2);
  assert.deepEqual(Array.from(r.poses(1).subarray(0, 3)), [1, 1, 3]);
  assert.equal(motionOfFlags(r.flags(1)[0]), 'dynamic');
  assert.equal(r.statNames.length, 0);
  assert.equal(r.contacts(1).length, 0);
  assert.throws(() => readRecording(buffer.slice(0, buffer.byteLength - 1)), /bytes of frames, expected 64 \(2 frames of 1 bodies\)/);
});

// Serves `file` with `atoll view --port 0`; resolves to { base, stop } (null when this atoll
// has no viewer built in).
function serve(file) {
  const server = spawn(atoll, ['view', file, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const stop = () => new Promise((done) => { server.once('exit', done); server.kill('SIGINT'); });
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve({ base: m[0], stop });
    });
    server.stderr.on('data', (d) => (out += d));
    server.on('exit', (code) => (/was not built/.test(out) ? resolve(null) : reject(new Error(`atoll view exited ${code}: ${out}`))));
  });
}

test('served: header and figures first, then frames and contacts in chunks, a bounded cache', { skip: !atoll }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atoll-reader-test-'));
  const file = join(dir, 'r.rec');
  execFileSync(atoll, ['run', 'tower10', '--quiet', '--steps', '40', '--record', file, '--record-contacts']);
  const bytes = readFileSync(file);
  const whole = wholeRecording(readRecording(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
  const server = await serve(file);
  try {
    if (server === null) return; // no viewer in this atoll: nothing is served
    // Chunks of 3 frames, at most 4 of them held.
    const frameBytes = whole.frameBytes;
    const remote = await RemoteRecording.open(server.base, { chunkBytes: 3 * frameBytes, cacheBytes: 4 * 3 * frameBytes });
    assert.equal(remote.frameCount, 41);
    assert.equal(remote.chunkFrames, 3);
    assert.equal(remote.maxChunks, 4);
    assert.deepEqual(remote.header, whole.header);
    assert.deepEqual(remote.statNames, whole.statNames);
    assert.equal(remote.maxContacts, whole.maxContacts);
    assert.ok(remote.maxContacts > 0);
    // Every figure of every step is in before any frame but the first chunk.
    assert.equal(remote.chunksHeld(), 1);
    assert.ok(remote.has(2) && !remote.has(3));
    for (const name of whole.statNames) assert.deepEqual(Array.from(remote.statSeries(name)), Array.from(whole.statSeries(name)));
    // Any frame, in any order, equals the file's; the cache stays bounded.
    for (const k of [40, 0, 17, 39, 18, 5, 33, 2, 21, 40]) {
      await remote.load(k, { contacts: true });
      assert.ok(remote.has(k) && remote.hasContacts(k));
      assert.deepEqual(Array.from(remote.poses(k)), Array.from(whole.poses(k)), `poses of frame ${k}`);
      assert.deepEqual(Array.from(remote.flags(k)), Array.from(whole.flags(k)));
      assert.deepEqual(Array.from(remote.stats(k)), Array.from(whole.stats(k)));
      assert.deepEqual(Array.from(remote.contacts(k)), Array.from(whole.contacts(k)), `contacts of frame ${k}`);
      assert.ok(remote.chunksHeld() <= 4, `${remote.chunksHeld()} chunks held`);
      // The bytes held, contacts included, are counted right and stay within the budget.
      let held = 0;
      for (const chunk of remote.chunks.values()) held += chunk.frames.byteLength + (chunk.contacts?.byteLength ?? 0);
      assert.equal(remote.heldBytes, held);
      assert.ok(held <= remote.cacheBytes, `${held} bytes held, budget ${remote.cacheBytes}`);
    }
    // Frames loaded without their contacts show none until asked for.
    const fresh = await RemoteRecording.open(server.base, { chunkBytes: 3 * frameBytes });
    await fresh.load(30);
    assert.ok(fresh.has(30) && !fresh.hasContacts(30));
    assert.equal(fresh.contacts(30).length, 0);
    assert.ok(whole.contacts(30).length > 0);
    // Prefetching fetches the chunks ahead, three requests at a time, each arrival starting
    // the next, until stopped.
    fresh.prefetch(6, 12);
    assert.equal(fresh.pending.size, 3);
    for (let i = 0; i < 10 && !(fresh.has(15) && fresh.has(17)); ++i) {
      await Promise.all([...fresh.pending.values()]);
      await new Promise((done) => setTimeout(done, 10));
    }
    assert.ok(fresh.has(6) && fresh.has(11) && fresh.has(14) && fresh.has(15) && fresh.has(17));
    assert.ok(!fresh.has(18));
    fresh.prefetch(21, 3);
    fresh.stopPrefetch();
    await Promise.all([...fresh.pending.values()]);
    assert.ok(fresh.has(21) && fresh.has(23) && !fresh.has(24));
    // A frame outside the recording is refused by the server, with a clear error.
    await assert.rejects(fresh.fetchBytes('frames', 41, 1), /GET \/frames\?first=41&count=1: HTTP 416/);
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('served: soft body vertices of any frame equal the file\'s', { skip: !atoll }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atoll-reader-test-'));
  const scene = join(dir, 'soft.json');
  const file = join(dir, 'r.rec');
  writeFileSync(scene, JSON.stringify(SOFT_SCENE));
  execFileSync(atoll, ['run', scene, '--quiet', '--record', file]);
  const bytes = readFileSync(file);
  const whole = wholeRecording(readRecording(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
  const server = await serve(file);
  try {
    if (server === null) return; // no viewer in this atoll: nothing is served
    const remote = await RemoteRecording.open(server.base, { chunkBytes: 3 * whole.frameBytes });
    assert.equal(remote.version, 3);
    assert.equal(remote.softBodyCount, 2);
    assert.equal(remote.frameBytes, whole.frameBytes);
    for (const k of [10, 0, 4]) {
      await remote.load(k);
      assert.deepEqual(Array.from(remote.softFlags(k)), Array.from(whole.softFlags(k)));
      for (const s of [0, 1])
        assert.deepEqual(Array.from(remote.softPositions(k, s)), Array.from(whole.softPositions(k, s)), `frame ${k}, soft body ${s}`);
      assert.deepEqual(Array.from(remote.stats(k)), Array.from(whole.stats(k)));
    }
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
