// Reads an Atoll recording (docs/recording-format.md, versions 1 and 2) from an ArrayBuffer
// without copying the frames: poses are Float32Array views into the buffer.

export const FLAG_ACTIVE = 1;
export const FLAG_ADDED = 2;
export const FLAG_QUARANTINED = 4;
export const CONSTRAINT_ENABLED = 1;
export const CONSTRAINT_BROKEN = 2;
export const CONSTRAINT_KNOWN = 128;
export const MOTION_NAMES = ['static', 'kinematic', 'dynamic'];
const CONTACT_FLOATS = 7; // point x y z, normal x y z, penetration

/** Motion type name of a frame's flags byte. */
export function motionOfFlags(flags) {
  return MOTION_NAMES[(flags >> 3) & 3] ?? 'unknown';
}

/**
 * Where things are in a frame of a recording of `version` with `header` (the header JSON):
 * { n bodies, c constraint state bytes, constraints (header's list), statNames, statsOffset,
 * indexOffset (the contact index), frameBytes } (docs/recording-format.md, "Layout").
 */
export function frameLayout(version, header) {
  const n = header.bodies.length;
  const constraints = header.constraints ?? [];
  const c = version >= 2 ? constraints.length : 0;
  const statNames = version >= 2 ? header.stats ?? [] : [];
  const statsOffset = Math.ceil((29 * n + c) / 4) * 4;
  const indexOffset = statsOffset + 4 * statNames.length;
  const frameBytes = version >= 2 ? indexOffset + 8 : Math.ceil((29 * n) / 4) * 4;
  return { n, c, constraints, statNames, statsOffset, indexOffset, frameBytes };
}

/**
 * Parses a recording. Throws an Error with a clear message for anything that is not a complete
 * recording of version 1 or 2.
 * Returns { version, header, bodyCount, frameCount, loadedFrames, complete, frameBytes,
 * poses(k), flags(k), constraintFlags(k), stats(k), contacts(k) }.
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
  if (version !== 1 && version !== 2)
    throw new Error(`recording format version ${version}, this viewer reads versions 1 to 2`);
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
  const { n, c, constraints, statNames, statsOffset, indexOffset, frameBytes } = frameLayout(version, header);
  const frameCount = header.steps + 1;
  const framesBegin = 16 + headerBytes;
  const framesEnd = framesBegin + frameCount * frameBytes;
  const shapeText = `(${frameCount} frames of ${n} bodies)`;
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
