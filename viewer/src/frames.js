// The viewer's two sources of frames, with one interface (docs/viewer.md, "Loading"):
// - RemoteRecording: a recording served by `atoll view`. It loads the header and every step's
//   figures first (GET /header, /stats: small), then frames in chunks on demand
//   (GET /frames?first=K&count=N, and /contacts likewise when they are shown), keeping at most
//   a bounded number of chunks (least recently used ones are let go).
// - wholeRecording(readRecording(buffer)): a recording held whole (the --html page).
//
// Both have: version, header, bodyCount, softBodyCount, frameCount, frameBytes, statNames,
// maxContacts, statSeries(name), stats(k), has(k), hasContacts(k), load(k, { contacts }) (a
// promise that resolves once frame k — and its contacts if asked — is in), prefetch(k, frames),
// poses(k), flags(k), constraintFlags(k), contacts(k), softFlags(k), softPositions(k, s) (the
// frame accessors need has(k)).
import { frameLayout, NEWEST_VERSION } from './recording.js';

const CONTACT_FLOATS = 7;

// The most contacts any frame holds: from the per-step `contacts` figure (which counts all of
// them) and the header's per-frame limit.
function mostContacts(header, statSeries) {
  if (!header.contacts) return 0;
  const counts = statSeries('contacts');
  let most = 0;
  if (counts) for (const v of counts) most = Math.max(most, v);
  return Math.min(most, header.max_contacts_per_frame ?? most);
}

/** A recording read whole (readRecording's result of a complete file) as a frame source. */
export function wholeRecording(r) {
  const series = new Map();
  const statSeries = (name) => {
    const i = r.statNames.indexOf(name);
    if (i < 0) return null;
    if (!series.has(name)) {
      const values = new Float32Array(r.frameCount);
      for (let k = 0; k < r.frameCount; ++k) values[k] = r.stats(k)[i];
      series.set(name, values);
    }
    return series.get(name);
  };
  return {
    ...r,
    statSeries,
    maxContacts: mostContacts(r.header, statSeries),
    has: () => true,
    hasContacts: () => true,
    load: () => Promise.resolve(),
    prefetch: () => {},
    chunksHeld: () => 1,
  };
}

/** A recording served by `atoll view` at `base` (a URL ending in '/'), loaded in chunks. */
export class RemoteRecording {
  /**
   * Loads the header, the per-step figures and the first chunk. Options: chunkBytes (bytes of
   * frames per request; default: the server's chunk_frames, about 4 MB), cacheBytes (the most bytes of frames kept, default 160 MB; at least
   * 4 chunks), fetch (the fetch function).
   */
  static async open(base, options = {}) {
    const get = options.fetch ?? fetch;
    const headerResponse = await get(new URL('header', base));
    if (!headerResponse.ok) throw new Error(`GET /header: HTTP ${headerResponse.status}`);
    const info = await headerResponse.json();
    const headerInMs = performance.now();
    if (!(info.version >= 1 && info.version <= NEWEST_VERSION))
      throw new Error(`recording format version ${info.version}, this viewer reads versions 1 to ${NEWEST_VERSION}`);
    const rec = new RemoteRecording(base, info, options);
    // The figures and the first chunk together.
    const statsPromise = get(new URL('stats', base)).then(async (response) => {
      if (!response.ok) throw new Error(`GET /stats: HTTP ${response.status}`);
      return response.arrayBuffer();
    });
    const [statsBuffer] = await Promise.all([statsPromise, rec.load(0)]);
    if (statsBuffer.byteLength !== 4 * rec.statNames.length * rec.frameCount)
      throw new Error(`GET /stats: ${statsBuffer.byteLength} bytes, expected ${4 * rec.statNames.length * rec.frameCount}`);
    rec.statBlock = new Float32Array(statsBuffer);
    rec.maxContacts = mostContacts(rec.header, (name) => rec.statSeries(name));
    rec.headerInMs = headerInMs;
    return rec;
  }

  constructor(base, info, options) {
    this.base = base;
    this.fetch = options.fetch ?? fetch.bind(globalThis);
    this.version = info.version;
    this.header = info.header;
    const layout = frameLayout(this.version, this.header);
    this.layout = layout;
    this.bodyCount = layout.n;
    this.softBodyCount = layout.softBodies.length;
    this.frameCount = this.header.steps + 1;
    this.frameBytes = layout.frameBytes;
    this.statNames = layout.statNames;
    if (info.frame_count !== this.frameCount || info.frame_bytes !== this.frameBytes)
      throw new Error(`GET /header: ${info.frame_count} frames of ${info.frame_bytes} bytes, ` +
        `the header says ${this.frameCount} of ${this.frameBytes}`);
    this.complete = true;
    this.loadedFrames = this.frameCount;
    this.statBlock = new Float32Array(0);
    this.maxContacts = 0;
    // Chunks: the server's size (about 4 MB; the page preloads the first), or options.chunkBytes.
    const cacheBytes = options.cacheBytes > 0 ? options.cacheBytes : 160 << 20;
    const chunkFrames = options.chunkBytes > 0 ? Math.floor(options.chunkBytes / this.frameBytes)
      : info.chunk_frames ?? Math.floor((4 << 20) / this.frameBytes);
    this.chunkFrames = Math.max(1, Math.min(this.frameCount, chunkFrames));
    this.chunkCount = Math.ceil(this.frameCount / this.chunkFrames);
    this.maxChunks = Math.max(4, Math.floor(cacheBytes / (this.chunkFrames * this.frameBytes)));
    this.cacheBytes = Math.max(cacheBytes, 4 * this.chunkFrames * this.frameBytes);
    this.heldBytes = 0; // frames and contacts held
    this.chunks = new Map(); // chunk index → { frames: ArrayBuffer, contacts: ArrayBuffer | null, firstContact, used }
    this.pending = new Map(); // chunk index → promise of its frames
    this.pendingContacts = new Map();
    this.tick = 0;
    this.pinned = 0;
    this.ahead = null; // the prefetch window: [k, frames, options]
    this.series = new Map();
    this.bytesFetched = 0;
  }

  /** The figure `name` of every step (a Float32Array of frameCount), or null. */
  statSeries(name) {
    const i = this.statNames.indexOf(name);
    if (i < 0) return null;
    if (!this.series.has(name)) {
      const s = this.statNames.length;
      const values = new Float32Array(this.frameCount);
      for (let k = 0; k < this.frameCount; ++k) values[k] = this.statBlock[k * s + i];
      this.series.set(name, values);
    }
    return this.series.get(name);
  }

  /** Figures of frame k, parallel to statNames (always loaded). */
  stats(k) {
    const s = this.statNames.length;
    return this.statBlock.subarray(k * s, k * s + s);
  }

  chunkOf(k) { return Math.floor(k / this.chunkFrames); }
  /** Whether frame k's poses and flags are in. */
  has(k) { return this.chunks.has(this.chunkOf(k)); }
  /** Whether frame k's contacts are in (always, for a recording without contacts). */
  hasContacts(k) {
    if (!this.header.contacts) return true;
    const chunk = this.chunks.get(this.chunkOf(k));
    return chunk !== undefined && chunk.contacts !== null;
  }
  /** Number of chunks held now. */
  chunksHeld() { return this.chunks.size; }

  async fetchBytes(path, first, count) {
    const response = await this.fetch(new URL(`${path}?first=${first}&count=${count}`, this.base));
    if (!response.ok) throw new Error(`GET /${path}?first=${first}&count=${count}: HTTP ${response.status}`);
    const buffer = await response.arrayBuffer();
    this.bytesFetched += buffer.byteLength;
    return buffer;
  }

  loadChunk(c) {
    if (this.chunks.has(c)) return Promise.resolve(this.chunks.get(c));
    if (!this.pending.has(c)) {
      const first = c * this.chunkFrames;
      const count = Math.min(this.chunkFrames, this.frameCount - first);
      const promise = this.fetchBytes('frames', first, count).then((frames) => {
        if (frames.byteLength !== count * this.frameBytes)
          throw new Error(`GET /frames: ${frames.byteLength} bytes, expected ${count * this.frameBytes}`);
        const chunk = { frames, contacts: null, firstContact: 0, used: ++this.tick };
        if (this.version >= 2) chunk.firstContact = new DataView(frames).getUint32(this.layout.indexOffset, true);
        this.chunks.set(c, chunk);
        this.heldBytes += frames.byteLength;
        this.evict(c);
        // Keep the prefetch window filling (prefetch() starts only a few requests at a time).
        if (this.ahead) Promise.resolve().then(() => this.ahead && this.prefetch(...this.ahead));
        return chunk;
      }).finally(() => this.pending.delete(c));
      this.pending.set(c, promise);
    }
    return this.pending.get(c);
  }

  loadChunkContacts(c) {
    if (!this.header.contacts) return Promise.resolve();
    return this.loadChunk(c).then((chunk) => {
      if (chunk.contacts !== null) return;
      if (!this.pendingContacts.has(c)) {
        const first = c * this.chunkFrames;
        const count = Math.min(this.chunkFrames, this.frameCount - first);
        const promise = this.fetchBytes('contacts', first, count).then((contacts) => {
          // (The chunk may have been let go and fetched again meanwhile.)
          const held = this.chunks.get(c);
          if (held === undefined) return; // let go meanwhile: fetched again when needed
          held.contacts = contacts;
          this.heldBytes += contacts.byteLength;
          this.evict(c);
        }).finally(() => this.pendingContacts.delete(c));
        this.pendingContacts.set(c, promise);
      }
      return this.pendingContacts.get(c);
    });
  }

  /** Resolves once frame k is in (and its contacts, with { contacts: true }). */
  async load(k, { contacts = false } = {}) {
    const c = this.chunkOf(k);
    // (A chunk whose contacts arrive after it was let go is fetched again.)
    for (let attempt = 0; attempt < 3; ++attempt) {
      await (contacts ? this.loadChunkContacts(c) : this.loadChunk(c));
      const chunk = this.chunks.get(c);
      if (chunk && (!contacts || this.hasContacts(k))) {
        chunk.used = ++this.tick;
        return;
      }
    }
    throw new Error(`frame ${k}: let go again before it could be shown (the cache is too small)`);
  }

  /**
   * Starts loading the chunks of frames k … k + frames − 1 that are not in, three requests at a
   * time; each chunk that arrives starts the next, until stopPrefetch() or another window.
   */
  prefetch(k, frames, { contacts = false } = {}) {
    this.ahead = [k, frames, { contacts }];
    const [first, last] = this.window();
    for (let c = first; c <= last; ++c) {
      if (this.pending.size + this.pendingContacts.size >= 3) break;
      const have = this.chunks.get(c);
      if (have && (!contacts || have.contacts !== null || !this.header.contacts)) continue;
      const p = contacts ? this.loadChunkContacts(c) : this.loadChunk(c);
      p.catch(() => {}); // a failed prefetch is retried by the load that needs it
    }
  }

  // The chunks [first, last] of the prefetch window, cut so that they fit in the cache beside
  // the pinned chunk: a window larger than the cache let its own later chunks push out the ones
  // due next, which were then fetched again, or were gone when their step came.
  window() {
    if (!this.ahead) return [1, 0];
    const [k, frames] = this.ahead;
    const first = this.chunkOf(k);
    const last = this.chunkOf(Math.min(this.frameCount - 1, k + frames - 1));
    return [first, Math.min(last, first + this.maxChunks - 2)];
  }

  /** Stops filling the prefetch window (requests under way still complete). */
  stopPrefetch() { this.ahead = null; }

  /** Keeps frame k's chunk (the frame shown) whatever else arrives. */
  pin(k) { this.pinned = this.chunkOf(k); }

  // Lets the least recently used chunks go (never the pinned one nor `keep`, the one just in;
  // those of the prefetch window only when nothing else is left) while more than maxChunks are
  // held, or more than cacheBytes with their contacts.
  evict(keep) {
    const [first, last] = this.window();
    while (this.chunks.size > this.maxChunks || (this.heldBytes > this.cacheBytes && this.chunks.size > 1)) {
      let oldest = null;
      let oldestInWindow = null;
      for (const [c, chunk] of this.chunks) {
        if (c === this.pinned || c === keep) continue;
        const inWindow = c >= first && c <= last;
        const current = inWindow ? oldestInWindow : oldest;
        if (current === null || chunk.used < this.chunks.get(current).used) {
          if (inWindow) oldestInWindow = c;
          else oldest = c;
        }
      }
      if (oldest === null) oldest = oldestInWindow;
      if (oldest === null) break;
      const chunk = this.chunks.get(oldest);
      this.heldBytes -= chunk.frames.byteLength + (chunk.contacts?.byteLength ?? 0);
      this.chunks.delete(oldest);
    }
  }

  chunkAt(k) {
    const chunk = this.chunks.get(this.chunkOf(k));
    if (!chunk) throw new Error(`frame ${k} is not loaded`);
    chunk.used = ++this.tick;
    return chunk;
  }
  frameOffset(k) { return (k % this.chunkFrames) * this.frameBytes; }
  /** Poses of frame k: body i at [7i .. 7i + 6] = x y z qx qy qz qw. */
  poses(k) { return new Float32Array(this.chunkAt(k).frames, this.frameOffset(k), 7 * this.bodyCount); }
  /** Flags bytes of frame k, one per body. */
  flags(k) { return new Uint8Array(this.chunkAt(k).frames, this.frameOffset(k) + 28 * this.bodyCount, this.bodyCount); }
  /** Constraint state bytes of frame k (all 0 = unknown for version 1). */
  constraintFlags(k) {
    if (this.version < 2) return new Uint8Array(this.layout.constraints.length);
    return new Uint8Array(this.chunkAt(k).frames, this.frameOffset(k) + 29 * this.bodyCount, this.layout.c);
  }
  /** Soft body flags bytes of frame k, one per soft body. */
  softFlags(k) {
    if (this.softBodyCount === 0) return new Uint8Array(0);
    return new Uint8Array(this.chunkAt(k).frames, this.frameOffset(k) + this.layout.softFlagsOffset, this.softBodyCount);
  }
  /** Vertex positions of soft body s in frame k: vertex v at [3v .. 3v + 2] = x y z. */
  softPositions(k, s) {
    return new Float32Array(this.chunkAt(k).frames, this.frameOffset(k) + this.layout.softOffsets[s],
      3 * this.layout.softBodies[s].vertex_count);
  }
  /** Contacts of frame k (7 floats each: point, normal, penetration); empty when not loaded. */
  contacts(k) {
    const chunk = this.chunkAt(k);
    if (this.version < 2 || chunk.contacts === null) return new Float32Array(0);
    const view = new DataView(chunk.frames);
    const at = this.frameOffset(k) + this.layout.indexOffset;
    const first = view.getUint32(at, true) - chunk.firstContact;
    const count = view.getUint32(at + 4, true);
    return new Float32Array(chunk.contacts, first * CONTACT_FLOATS * 4, count * CONTACT_FLOATS);
  }
}
