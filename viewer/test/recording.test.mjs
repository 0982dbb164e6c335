// The viewer's recording reader (viewer/src/recording.js) on real files: version 2 written by
// `atoll run --record --record-contacts`, a version-1 file made by hand, files cut short or
// damaged (refused with a reason), and a file still arriving (partial frames, no contacts).
// Run by ctest (viewer_reader) with node's test runner: node --test recording.test.mjs, with
// ATOLL_CLI naming the atoll program.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecording, motionOfFlags, FLAG_ADDED } from '../src/recording.js';

const atoll = process.env.ATOLL_CLI;

function record(args) {
  const dir = mkdtempSync(join(tmpdir(), 'atoll-reader-test-'));
  try {
    const file = join(dir, 'r.rec');
    execFileSync(atoll, ['run', 'tower10', '--quiet', '--steps', '5', '--record', file, ...args]);
    const bytes = readFileSync(file);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('version 2 with contacts: poses, figures and contacts of any frame', { skip: !atoll }, () => {
  const buffer = record(['--record-contacts']);
  const r = readRecording(buffer);
  assert.equal(r.version, 2);
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

test('damaged version-2 files are refused with a reason', { skip: !atoll }, () => {
  const buffer = record(['--record-contacts']);
  assert.throws(() => readRecording(buffer.slice(0, buffer.byteLength - 3)),
    /bytes of contacts, expected \d+ \(\d+ contacts\): the file is truncated or damaged/);
  const r = readRecording(buffer);
  assert.throws(() => readRecording(buffer.slice(0, buffer.byteLength - r.contactCount * 28 - 4)),
    /bytes of frames, expected \d+ \(6 frames of 11 bodies\)/);
  const future = buffer.slice(0);
  new DataView(future).setUint32(8, 3, true);
  assert.throws(() => readRecording(future), /recording format version 3, this viewer reads versions 1 to 2/);
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
