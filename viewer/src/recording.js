// Reads an Atoll recording (docs/recording-format.md, versions 1 to 3) from an ArrayBuffer
// without copying the frames: poses and soft body vertices are Float32Array views into the
// buffer.

export const FLAG_ACTIVE = 1;
export const FLAG_ADDED = 2;
export const FLAG_QUARANTINED = 4;
export const CONSTRAINT_ENABLED = 1;
export const CONSTRAINT_BROKEN = 2;
export const CONSTRAINT_KNOWN = 128;
export const SOFT_ACTIVE = 1;
export const SOFT_ADDED = 2;
/** The newest format version this reader reads (it reads every one from 1). */
export const NEWEST_VERSION = 3;
export const MOTION_NAMES = ['static', 'kinematic', 'dynamic'];
const CONTACT_FLOATS = 7; // point x y z, normal x y z, penetration

/** Motion type name of a frame's flags byte. */
export function motionOfFlags(flags) {
  return MOTION_NAMES[(flags >> 3) & 3] ?? 'unknown';
}

/**
 * Where things are in a frame of a recording of `version` with `header` (the header JSON):
 * { n bodies, c constraint state bytes, constraints (header's list), statNames, statsOffset,
 * indexOffset (the contact index), softBodies (header's list; empty before version 3),
 * softFlagsOffset (their flags bytes), softOffsets (where each one's positions start),
 * vertexCount (of all soft bodies), frameBytes } (docs/recording-format.md, "Layout").
 */
export function frameLayout(version, header) {
  const n = header.bodies.length;
  const constraints = header.constraints ?? [];
  const c = version >= 2 ? constraints.length : 0;
  const statNames = version >= 2 ? header.stats ?? [] : [];
  const statsOffset = Math.ceil((29 * n + c) / 4) * 4;
  const indexOffset = statsOffset + 4 * statNames.length;
  const softBodies = version >= 3 ? header.soft_bodies ?? [] : [];
  const m = softBodies.length;
  const softFlagsOffset = indexOffset + 8;
  // The flags bytes, padded to a multiple of 4, then each soft body's x y z per vertex.
  const positionsOffset = softFlagsOffset + Math.ceil(m / 4) * 4;
  const softOffsets = [];
  let vertexCount = 0;
  for (const soft of softBodies) {
    softOffsets.push(positionsOffset + 12 * vertexCount);
    vertexCount += soft.vertex_count;
  }
  const frameBytes = version === 1 ? Math.ceil((29 * n) / 4) * 4
    : m === 0 ? indexOffset + 8 : positionsOffset + 12 * vertexCount;
  return { n, c, constraints, statNames, statsOffset, indexOffset, softBodies, softFlagsOffset,
    softOffsets, vertexCount, frameBytes };
}

// Checks the header's soft bodies (version 3) so that the frame layout can be trusted: a name,
// a vertex count from 1 to 2^32 − 1, a radius, and edges and faces of vertex indices in range.
function checkSoftBodies(header) {
  const list = header.soft_bodies ?? [];
  if (!Array.isArray(list)) throw new Error('header.soft_bodies: expected an array');
  const isIndex = (i, count) => Number.isInteger(i) && i >= 0 && i < count;
  list.forEach((soft, s) => {
    const at = `header.soft_bodies[${s}]`;
    if (soft === null || typeof soft !== 'object') throw new Error(`${at}: expected an object`);
    if (typeof soft.name !== 'string' || soft.name === '') throw new Error(`${at}.name: expected a name`);
    const count = soft.vertex_count;
    if (!Number.isInteger(count) || count < 1 || count > 0xffffffff)
      throw new Error(`${at}.vertex_count: expected an integer from 1 to 4294967295, got ${JSON.stringify(count)}`);
    if (typeof soft.vertex_radius !== 'number' || !(soft.vertex_radius >= 0))
      throw new Error(`${at}.vertex_radius: expected a number >= 0`);
    for (const [key, size] of [['edges', 2], ['faces', 3]]) {
      const items = soft[key];
      if (!Array.isArray(items)) throw new Error(`${at}.${key}: required key missing or not an array`);
      items.forEach((item, i) => {
        if (!Array.isArray(item) || item.length !== size || !item.every((v) => isIndex(v, count)))
          throw new Error(`${at}.${key}[${i}]: expected ${size} vertex indices below ${count}, got ${JSON.stringify(item)}`);
      });
    }
  });
}

/**
 * Flat index arrays of the header's soft bodies for drawing: per soft body { name,
 * vertexCount, radius, edges: Uint32Array (2 per edge), faces: Uint32Array (3 per face) }.
 */
export function softBodyTopology(header) {
  return (header.soft_bodies ?? []).map((soft) => ({
    name: soft.name,
    vertexCount: soft.vertex_count,
    radius: soft.vertex_radius,
    edges: Uint32Array.from(soft.edges.flat()),
    faces: Uint32Array.from(soft.faces.flat()),
  }));
}

/**
 * Parses a recording. Throws an Error with a clear message for anything that is not a complete
 * recording of version 1 to 3.
 * Returns { version, header, bodyCount, softBodyCount, frameCount, loadedFrames, complete,
 * frameBytes, poses(k), flags(k), constraintFlags(k), stats(k), contacts(k), softFlags(k),
 * softPositions(k, s) }.
 *
 * While the file is still arriving, `available` (< buffer.byteLength) says how many bytes of
 * it are in: the result then has the frames that are complete so far (loadedFrames), no
 * contacts, and the checks of the whole file wait for the call with every byte; null when not
 * even the header is in yet.
 */
export function readRecording(buffer, available = buffer.byteLength) {
  if (!(buffer instanceof ArrayBuffer)) throw new Error('recording: expected binary data');
  const complete = available >= buffer.byteLength;
  const bytes = new Uint8Array(buffer, 0, complete ? buffer.byteLength : available);
  const view = new DataView(buffer);
  if (!complete && (available < 16 || available < 16 + view.getUint32(12, true))) return null;
  if (bytes.length < 16 || new TextDecoder().decode(bytes.subarray(0, 8)) !== 'ATOLLREC')
    throw new Error('not an Atoll recording (no ATOLLREC magic)');
  const version = view.getUint32(8, true);
  if (!(version >= 1 && version <= NEWEST_VERSION))
    throw new Error(`recording format version ${version}, this viewer reads versions 1 to ${NEWEST_VERSION}`);
  const headerBytes = view.getUint32(12, true);
  if (headerBytes > bytes.length - 16)
    throw new Error(`truncated: the header claims ${headerBytes} bytes, the file has ${bytes.length - 16}`);
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + headerBytes)));
  } catch (e) {
    throw new Error(`the header is not JSON: ${e.message}`);
  }
  for (const key of ['steps', 'shapes', 'bodies'])
    if (header[key] === undefined) throw new Error(`header.${key}: required key missing`);
  if (version >= 3) checkSoftBodies(header);
  const layout = frameLayout(version, header);
  const { n, c, constraints, statNames, statsOffset, indexOffset, softBodies, softFlagsOffset, softOffsets, frameBytes } = layout;
  const m = softBodies.length;
  // Vertex counts are the header's numbers: refused before any size is computed from them when
  // the file cannot hold them even once (the C++ reader's check, same message).
  if (complete && 12 * layout.vertexCount > bytes.length - 16 - headerBytes)
    throw new Error(`header.soft_bodies: ${layout.vertexCount} vertices in all need ${12 * layout.vertexCount} bytes per frame, ` +
      `the file has ${bytes.length - 16 - headerBytes} bytes of frames: the file is truncated or damaged`);
  const frameCount = header.steps + 1;
  const framesBegin = 16 + headerBytes;
  const framesEnd = framesBegin + frameCount * frameBytes;
  const softText = m === 0 ? '' : ` and ${m} soft bodies of ${layout.vertexCount} vertices`;
  const shapeText = `(${frameCount} frames of ${n} bodies${softText})`;
  const frameOffset = (k) => framesBegin + k * frameBytes;
  const accessors = {
    version,
    header,
    bodyCount: n,
    frameCount,
    frameBytes,
    statNames,
    /** Poses of frame k: body i at [7i .. 7i + 6] = x y z qx qy qz qw. */
    poses: (k) => new Float32Array(buffer, frameOffset(k), 7 * n),
    /** Flags bytes of frame k, one per body. */
    flags: (k) => new Uint8Array(buffer, frameOffset(k) + 28 * n, n),
    /** Constraint state bytes of frame k (all 0 = unknown for version 1). */
    constraintFlags: (k) =>
      version >= 2 ? new Uint8Array(buffer, frameOffset(k) + 29 * n, c) : new Uint8Array(constraints.length),
    /** Per-step figures of frame k, parallel to statNames. */
    stats: (k) => new Float32Array(buffer, frameOffset(k) + statsOffset, statNames.length),
    softBodyCount: m,
    /** Soft body flags bytes of frame k, one per soft body (SOFT_ACTIVE, SOFT_ADDED). */
    softFlags: (k) => (m === 0 ? new Uint8Array(0) : new Uint8Array(buffer, frameOffset(k) + softFlagsOffset, m)),
    /** Vertex positions of soft body s in frame k: vertex v at [3v .. 3v + 2] = x y z. */
    softPositions: (k, s) => new Float32Array(buffer, frameOffset(k) + softOffsets[s], 3 * softBodies[s].vertex_count),
  };
  if (!complete) {
    const loadedFrames = Math.max(0, Math.min(frameCount, Math.floor((available - framesBegin) / frameBytes)));
    return { ...accessors, complete: false, loadedFrames, contactCount: 0, contacts: () => new Float32Array(0) };
  }
  if (version === 1 ? bytes.length !== framesEnd : bytes.length < framesEnd)
    throw new Error(`${bytes.length - framesBegin} bytes of frames, expected ${frameCount * frameBytes} ${shapeText}`);
  let contactCount = 0;
  if (version >= 2) {
    for (let k = 0; k < frameCount; ++k) {
      const at = framesBegin + k * frameBytes + indexOffset;
      const first = view.getUint32(at, true);
      const count = view.getUint32(at + 4, true);
      if (first !== contactCount || (!header.contacts && count !== 0))
        throw new Error(`frame ${k}: contact index ${first} + ${count}, expected ${contactCount}: the file is damaged`);
      contactCount += count;
      const soft = new Uint8Array(buffer, framesBegin + k * frameBytes + softFlagsOffset, Math.ceil(m / 4) * 4);
      for (let j = 0; j < soft.length; ++j) {
        if (j < m && (soft[j] & ~(SOFT_ACTIVE | SOFT_ADDED)) !== 0)
          throw new Error(`frame ${k}: soft body ${j} (${JSON.stringify(softBodies[j].name)}): flags byte ${soft[j]} has bits other than 0 and 1: the file is damaged`);
        if (j >= m && soft[j] !== 0)
          throw new Error(`frame ${k}: soft body flags padding byte ${j - m} is ${soft[j]}, not 0: the file is damaged`);
      }
    }
    const expected = contactCount * CONTACT_FLOATS * 4;
    if (bytes.length - framesEnd !== expected)
      throw new Error(`${bytes.length - framesEnd} bytes of contacts, expected ${expected} (${contactCount} contacts): the file is truncated or damaged`);
  }
  return {
    ...accessors,
    complete: true,
    loadedFrames: frameCount,
    contactCount,
    /** Contacts of frame k: 7 floats each (point, normal, penetration). */
    contacts: (k) => {
      if (version < 2) return new Float32Array(0);
      const at = frameOffset(k) + indexOffset;
      const first = view.getUint32(at, true);
      const count = view.getUint32(at + 4, true);
      return new Float32Array(buffer, framesEnd + first * CONTACT_FLOATS * 4, count * CONTACT_FLOATS);
    },
  };
}
