// Atoll's web viewer (docs/viewer.md): plays a recording (docs/recording-format.md) with
// three.js. One InstancedMesh per (shape, part): a frame update writes every body's matrices
// into the instance buffers straight from the recording's Float32Array poses. One mesh (or set
// of line segments) per soft body, whose vertex buffer takes the frame's positions.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import {
  readRecording, motionOfFlags, softBodyTopology, FLAG_ACTIVE, FLAG_ADDED, FLAG_QUARANTINED,
  CONSTRAINT_ENABLED, CONSTRAINT_BROKEN, CONSTRAINT_KNOWN, SOFT_ACTIVE, SOFT_ADDED,
} from './recording.js';
import { RemoteRecording, wholeRecording } from './frames.js';
import { partGeometry, partMatrix, partDoubleSided } from './geometry.js';
import { Plot } from './plots.js';

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $('error');
  box.textContent = `Cannot show the recording: ${message}`;
  box.style.display = 'flex';
  console.error(`atoll viewer: ${message}`);
}

function base64ToBuffer(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

// The recording: inlined by `atoll view --html` (read whole), otherwise served beside the page
// (the header and every step's figures first, then frames in chunks as they are shown).
async function openRecording() {
  const embedded = $('atoll-recording');
  if (embedded) return wholeRecording(readRecording(base64ToBuffer(embedded.textContent.trim())));
  // ?chunkBytes=N&cacheBytes=M (for tests): smaller chunks, a smaller cache.
  const query = new URLSearchParams(window.location.search);
  const option = (name) => (query.has(name) ? Number(query.get(name)) : undefined);
  return RemoteRecording.open(new URL('.', window.location.href),
    { chunkBytes: option('chunkBytes'), cacheBytes: option('cacheBytes') });
}

// Colours: dynamic bodies by index, others by motion type; sleeping bodies grey.
const PALETTE = [0xe07b39, 0x3e8ed0, 0x58b368, 0xd8b13a, 0xb660cd, 0x4dbfbf, 0xe0709a, 0x8fa4d9];
const COLOR_STATIC = new THREE.Color(0x8a8174);
const COLOR_KINEMATIC = new THREE.Color(0x6f9fc9);
const COLOR_ASLEEP = new THREE.Color(0x6b6e72);
const COLOR_QUARANTINED = new THREE.Color(0xff2020);
const COLOR_SELECTED = new THREE.Color(0xfff35c);
// Soft bodies: lime, a colour no rigid body takes; asleep, grey like the bodies.
const COLOR_SOFT = new THREE.Color(0xa6e22e);

function bodyColor(index, flags, selected, out) {
  if (selected) return out.copy(COLOR_SELECTED);
  if (flags & FLAG_QUARANTINED) return out.copy(COLOR_QUARANTINED);
  const motion = (flags >> 3) & 3;
  if (motion === 0) return out.copy(COLOR_STATIC);
  if (!(flags & FLAG_ACTIVE)) return out.copy(COLOR_ASLEEP);
  if (motion === 1) return out.copy(COLOR_KINEMATIC);
  return out.setHex(PALETTE[index % PALETTE.length]);
}

// out (column-major 4×4 at offset o) = [R(q) p; 0 1] · m.
function writeInstanceMatrix(out, o, poses, b, m) {
  const px = poses[b], py = poses[b + 1], pz = poses[b + 2];
  const x = poses[b + 3], y = poses[b + 4], z = poses[b + 5], w = poses[b + 6];
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
  const wx = w * x, wy = w * y, wz = w * z;
  const r00 = 1 - 2 * (yy + zz), r01 = 2 * (xy - wz), r02 = 2 * (xz + wy);
  const r10 = 2 * (xy + wz), r11 = 1 - 2 * (xx + zz), r12 = 2 * (yz - wx);
  const r20 = 2 * (xz - wy), r21 = 2 * (yz + wx), r22 = 1 - 2 * (xx + yy);
  for (let j = 0; j < 4; ++j) {
    const m0 = m[4 * j], m1 = m[4 * j + 1], m2 = m[4 * j + 2], m3 = m[4 * j + 3];
    out[o + 4 * j] = r00 * m0 + r01 * m1 + r02 * m2 + px * m3;
    out[o + 4 * j + 1] = r10 * m0 + r11 * m1 + r12 * m2 + py * m3;
    out[o + 4 * j + 2] = r20 * m0 + r21 * m1 + r22 * m2 + pz * m3;
    out[o + 4 * j + 3] = m3;
  }
}

// World position of point p (shape space of body i; world space for i < 0) in frame poses.
function worldPoint(poses, i, p, out) {
  out.set(p[0], p[1], p[2]);
  if (i < 0) return out;
  const b = 7 * i;
  out.applyQuaternion(new THREE.Quaternion(poses[b + 3], poses[b + 4], poses[b + 5], poses[b + 6]));
  return out.add(new THREE.Vector3(poses[b], poses[b + 1], poses[b + 2]));
}

class Viewer {
  constructor(recording) {
    this.rec = recording;
    this.header = recording.header;
    this.frame = 0; // the step shown
    this.target = 0; // the step asked for (shown once its frame is in)
    this.stalls = 0; // playback frames that waited for a chunk
    this.playing = false;
    this.speed = 1;
    this.selected = -1;
    this.dirty = true;
    this.renders = 0;
    this.bodyIndex = new Map(this.header.bodies.map((b, i) => [b.name, i]));
    this.appliedColorKey = new Uint16Array(recording.bodyCount).fill(0xffff);
    this.setUpScene();
    this.buildBodies();
    this.buildSoftBodies();
    this.buildOverlays();
    this.frameCamera();
    this.buildPlots();
    this.bindControls();
    if (!this.header.contacts)
      for (const id of ['show-contacts', 'show-normals']) {
        $(id).disabled = true;
        $(id).parentElement.title = 'this recording has no contacts (atoll run --record-contacts)';
      }
    this.show(0);
    this.loop = this.loop.bind(this);
    requestAnimationFrame(this.loop);
  }

  setUpScene() {
    const view = $('view');
    // Multisampling costs much more than it shows with thousands of bodies (and a software
    // renderer): only small scenes get it.
    this.renderer = new THREE.WebGLRenderer({
      antialias: this.rec.bodyCount <= 2000, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    view.prepend(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x2a3038);
    this.scene.add(new THREE.HemisphereLight(0xdfe8f0, 0x404040, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(0.5, 1, 0.35);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 2000);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => (this.dirty = true));
    const resize = () => {
      const { clientWidth: w, clientHeight: h } = view;
      this.renderer.setSize(w, h, false);
      this.camera.aspect = w / Math.max(h, 1);
      this.camera.updateProjectionMatrix();
      this.dirty = true;
      this.plots?.forEach((p) => p.resize());
    };
    new ResizeObserver(resize).observe(view);
    resize();
    const soft = this.rec.softBodyCount > 0 ? `${this.rec.softBodyCount} soft bodies · ` : '';
    $('title').textContent = `${this.header.source ?? 'recording'} · ${this.rec.bodyCount} bodies · ${soft}` +
      `${this.header.steps} steps of ${(this.header.dt * 1000).toFixed(2)} ms · format v${this.rec.version}`;
  }

  // One InstancedMesh per (shape, part); instance j of a shape's meshes is its j-th body.
  buildBodies() {
    const bodiesOfShape = this.header.shapes.map(() => []);
    this.header.bodies.forEach((body, i) => bodiesOfShape[body.shape].push(i));
    this.meshes = [];
    this.instancesOfBody = this.header.bodies.map(() => []);
    this.header.shapes.forEach((shape, s) => {
      const bodies = Int32Array.from(bodiesOfShape[s]);
      if (bodies.length === 0) return;
      for (const part of shape.parts) {
        const material = new THREE.MeshStandardMaterial({
          color: 0xffffff, roughness: 0.75, metalness: 0.05,
          side: partDoubleSided(part) ? THREE.DoubleSide : THREE.FrontSide,
          flatShading: part.type === 'convex_hull' || part.type === 'box',
        });
        const mesh = new THREE.InstancedMesh(partGeometry(part), material, bodies.length);
        mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
        mesh.frustumCulled = false;
        mesh.userData = { bodies, part: partMatrix(part).elements, partType: part.type };
        mesh.setColorAt(0, COLOR_STATIC);
        bodies.forEach((b, j) => this.instancesOfBody[b].push([mesh, j]));
        this.scene.add(mesh);
        this.meshes.push(mesh);
      }
    });
  }

  // Soft bodies: with faces a triangle mesh seen from both sides (a cloth), otherwise its edges as
  // line segments (a rope) with a dot as wide as the vertex (lines are one pixel wide in
  // WebGL), or dots alone without edges. The position buffer is the frame's (applied
  // by applySoftBodies), shared by the lines and the dots.
  buildSoftBodies() {
    this.softBodies = softBodyTopology(this.header).map((soft) => {
      const position = new THREE.BufferAttribute(new Float32Array(3 * soft.vertexCount), 3);
      position.setUsage(THREE.DynamicDrawUsage);
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', position);
      const objects = [];
      let mode = 'points';
      if (soft.faces.length > 0) {
        mode = 'mesh';
        geometry.setIndex(new THREE.BufferAttribute(soft.faces, 1));
        objects.push(new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({
          color: 0xffffff, roughness: 0.8, metalness: 0, side: THREE.DoubleSide })));
      } else {
        if (soft.edges.length > 0) {
          mode = 'lines';
          geometry.setIndex(new THREE.BufferAttribute(soft.edges, 1));
          objects.push(new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0xffffff })));
        }
        const dots = new THREE.BufferGeometry();
        dots.setAttribute('position', position);
        // An attenuated point of size S is S · (half the canvas height) / depth pixels wide,
        // and a length L at that depth L · (half height) / (depth · tan(fov / 2)): S is the
        // vertex's diameter over tan(fov / 2).
        const size = (2 * Math.max(soft.radius, 1e-3)) / Math.tan(THREE.MathUtils.degToRad(this.camera.fov / 2));
        objects.push(new THREE.Points(dots, new THREE.PointsMaterial({ color: 0xffffff, size, sizeAttenuation: true })));
      }
      for (const o of objects) {
        o.frustumCulled = false; // the vertices move every frame: no bounds to keep up to date
        this.scene.add(o);
      }
      return { name: soft.name, mode, objects, position, geometry, appliedColor: -1 };
    });
  }

  // Contacts: points and normals, buffers sized for the frame with the most.
  buildContactBuffers() {
    const most = this.rec.maxContacts;
    const visible = [this.contactPoints?.visible ?? false, this.contactNormals?.visible ?? false];
    for (const o of [this.contactPoints, this.contactNormals]) if (o) { this.scene.remove(o); o.geometry.dispose(); }
    const points = new THREE.BufferGeometry();
    points.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * Math.max(most, 1)), 3));
    this.contactPoints = new THREE.Points(points, new THREE.PointsMaterial({
      color: 0xff3b3b, size: 6, sizeAttenuation: false, depthTest: false }));
    const normals = new THREE.BufferGeometry();
    normals.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * Math.max(most, 1)), 3));
    this.contactNormals = new THREE.LineSegments(normals, new THREE.LineBasicMaterial({
      color: 0x66ff66, depthTest: false }));
    [this.contactPoints, this.contactNormals].forEach((o, n) => {
      o.frustumCulled = false;
      o.renderOrder = 2;
      o.visible = visible[n];
      this.scene.add(o);
    });
  }

  buildOverlays() {
    this.buildContactBuffers();
    // Constraints: one segment each between its two attachment points.
    const count = (this.header.constraints ?? []).length;
    const lines = new THREE.BufferGeometry();
    lines.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * Math.max(count, 1)), 3));
    lines.setAttribute('color', new THREE.BufferAttribute(new Float32Array(6 * Math.max(count, 1)), 3));
    lines.setDrawRange(0, 2 * count);
    this.constraintLines = new THREE.LineSegments(lines, new THREE.LineBasicMaterial({
      vertexColors: true, depthTest: false }));
    this.constraintLines.frustumCulled = false;
    this.constraintLines.renderOrder = 1;
    this.scene.add(this.constraintLines);
  }

  // Looks at the moving bodies (all bodies when none moves) where they start.
  frameCamera() {
    const box = new THREE.Box3();
    const movers = this.header.bodies.map((b, i) => i).filter((i) => this.header.bodies[i].motion !== 'static');
    // Soft bodies move too: their vertices count among the movers.
    const softFlags = this.rec.softFlags(0);
    const soft = this.softBodies.map((b, s) => s).filter((s) => softFlags[s] & SOFT_ADDED);
    const chosen = movers.length > 0 || soft.length > 0 ? movers : this.header.bodies.map((b, i) => i);
    for (const k of [0]) {
      const poses = this.rec.poses(k);
      for (const i of chosen) box.expandByPoint(new THREE.Vector3(poses[7 * i], poses[7 * i + 1], poses[7 * i + 2]));
      for (const s of soft) {
        const p = this.rec.softPositions(k, s);
        for (let v = 0; v < p.length; v += 3) box.expandByPoint(new THREE.Vector3(p[v], p[v + 1], p[v + 2]));
      }
    }
    if (box.isEmpty()) box.set(new THREE.Vector3(-5, -5, -5), new THREE.Vector3(5, 5, 5));
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2 + 1, 3);
    this.sceneRadius = radius;
    this.camera.near = radius * 0.01;
    this.camera.far = radius * 400;
    this.camera.position.copy(center).add(new THREE.Vector3(0.55, 0.5, 1).normalize().multiplyScalar(radius * 1.9));
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
  }

  buildPlots() {
    const names = this.rec.statNames;
    const series = (name) => this.rec.statSeries(name);
    const seek = (k) => { this.pause(); this.seek(k); };
    const plot = (id, title, list) => new Plot($(id), title, list.filter((s) => s.values), seek);
    // Stage times: the total and the three stages that took longest over the run.
    const stages = names.filter((n) => n.startsWith('ms_')).map((n) => ({ name: n.slice(3), values: series(n) }));
    const total = new Float32Array(this.rec.frameCount);
    for (const s of stages) for (let k = 0; k < total.length; ++k) total[k] += s.values[k];
    const sum = (v) => v.reduce((a, b) => a + b, 0);
    stages.sort((a, b) => sum(b.values) - sum(a.values));
    this.plots = [
      plot('plot-energy', 'kinetic energy (J)', [{ name: 'kinetic energy', values: series('kinetic_energy_J') }]),
      plot('plot-penetration', 'max penetration (mm)', [{ name: 'max penetration',
        values: series('max_penetration_m')?.map((v) => v * 1000) }]),
      plot('plot-active', 'active bodies', [{ name: 'active bodies', values: series('active_bodies') }]),
      plot('plot-stages', 'ms per step', stages.length === 0 ? [] :
        [{ name: 'total', values: total }, ...stages.slice(0, 3)]),
    ];
    if (this.rec.version < 2)
      this.plots.forEach((p) => (p.note = 'no per-step figures in a version-1 recording'));
    this.plots.forEach((p) => p.resize());
  }

  bindControls() {
    const timeline = $('timeline');
    timeline.max = String(this.rec.frameCount - 1);
    timeline.addEventListener('input', () => { this.pause(); this.seek(Number(timeline.value)); });
    $('play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    $('speed').addEventListener('change', () => (this.speed = Number($('speed').value)));
    const toggles = () => {
      this.contactPoints.visible = $('show-contacts').checked;
      this.contactNormals.visible = $('show-normals').checked;
      this.constraintLines.visible = $('show-constraints').checked;
      this.dirty = true;
      // Contacts are loaded only when shown.
      if (this.contactsVisible() && !this.rec.hasContacts(this.frame)) {
        const k = this.frame;
        this.rec.load(k, { contacts: true }).then(() => { if (this.frame === k) this.show(k); }, (e) => this.failed(e));
      }
    };
    for (const id of ['show-contacts', 'show-normals', 'show-constraints'])
      $(id).addEventListener('change', toggles);
    toggles();
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== 'range' && e.target.type !== 'checkbox') return;
      if (e.code === 'Space') { e.preventDefault(); this.playing ? this.pause() : this.play(); }
      else if (e.code === 'ArrowRight') { e.preventDefault(); this.pause(); this.seek(this.frame + 1); }
      else if (e.code === 'ArrowLeft') { e.preventDefault(); this.pause(); this.seek(this.frame - 1); }
    });
    // A click (not a drag of the orbit camera) selects the body under the pointer.
    const canvas = this.renderer.domElement;
    let down = null;
    canvas.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
    canvas.addEventListener('pointerup', (e) => {
      if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 5) this.pick(e.clientX, e.clientY);
      down = null;
    });
  }

  contactsVisible() { return this.contactPoints.visible || this.contactNormals.visible; }

  failed(e) { this.pause(); showError(e.message); }

  play() {
    if (this.rec.frameCount > 1 && this.frame >= this.rec.frameCount - 1) {
      // From the start: once step 0 is shown.
      this.seek(0).then(() => { if (this.frame === 0) this.play(); });
      return;
    }
    this.playing = true;
    this.clock = performance.now();
    this.accumulated = 0;
    $('play').textContent = 'Pause';
  }

  pause() {
    this.playing = false;
    this.rec.stopPrefetch?.();
    $('play').textContent = 'Play';
  }

  /**
   * Asks for step k (clamped): shown at once when its frame is in, otherwise as soon as its
   * chunk arrives (unless another step was asked for meanwhile). Resolves to the step shown.
   */
  seek(k) {
    k = Math.max(0, Math.min(this.rec.frameCount - 1, Math.round(k)));
    this.target = k;
    $('timeline').value = String(k);
    const contacts = this.header.contacts && this.contactsVisible();
    if (this.rec.has(k) && (!contacts || this.rec.hasContacts(k))) {
      this.show(k);
      return Promise.resolve(k);
    }
    this.showStep();
    this.plots.forEach((p) => p.draw(k));
    return this.rec.load(k, { contacts }).then(() => {
      if (this.target === k) this.show(k);
      return this.frame;
    }, (e) => { this.failed(e); return this.frame; });
  }

  /** Shows step k, whose frame is in. */
  show(k) {
    this.frame = this.target = k;
    this.rec.pin?.(k);
    this.applyFrame();
    $('timeline').value = String(k);
    this.showStep();
    this.plots.forEach((p) => p.draw(k));
    this.updateInfo();
    this.dirty = true;
  }

  showStep() {
    const k = this.target, loading = k === this.frame ? '' : '  (loading…)';
    $('step').textContent = `step ${k} / ${this.rec.frameCount - 1}  t = ${(k * this.header.dt).toFixed(3)} s${loading}`;
  }

  applyFrame() {
    const k = this.frame;
    const poses = this.rec.poses(k);
    const flags = this.rec.flags(k);
    for (const mesh of this.meshes) {
      const { bodies, part } = mesh.userData;
      const out = mesh.instanceMatrix.array;
      for (let j = 0; j < bodies.length; ++j) {
        const i = bodies[j];
        if (flags[i] & FLAG_ADDED) writeInstanceMatrix(out, 16 * j, poses, 7 * i, part);
        else out.fill(0, 16 * j, 16 * j + 16); // removed or destroyed: not drawn
      }
      mesh.instanceMatrix.needsUpdate = true;
      mesh.boundingSphere = null; // recomputed for picking
      mesh.boundingBox = null;
    }
    this.applyColors(flags);
    this.applySoftBodies(k);
    this.applyOverlays(poses, flags);
  }

  // The soft bodies' vertices of frame k into their buffers; one not in the frame is hidden.
  applySoftBodies(k) {
    if (this.softBodies.length === 0) return;
    const flags = this.rec.softFlags(k);
    this.softBodies.forEach((soft, s) => {
      const shown = (flags[s] & SOFT_ADDED) !== 0;
      for (const o of soft.objects) o.visible = shown;
      if (!shown) return;
      soft.position.array.set(this.rec.softPositions(k, s));
      soft.position.needsUpdate = true;
      // Smooth shading of a cloth needs its normals, which change with every frame.
      if (soft.mode === 'mesh') soft.geometry.computeVertexNormals();
      const active = (flags[s] & SOFT_ACTIVE) !== 0;
      if (soft.appliedColor !== Number(active)) {
        soft.appliedColor = Number(active);
        for (const o of soft.objects) o.material.color.copy(active ? COLOR_SOFT : COLOR_ASLEEP);
      }
    });
  }

  // Colours change only for bodies whose flags or selection changed since the last frame.
  applyColors(flags) {
    const color = new THREE.Color();
    const touched = new Set();
    for (let i = 0; i < flags.length; ++i) {
      const key = flags[i] | (i === this.selected ? 0x100 : 0);
      if (key === this.appliedColorKey[i]) continue;
      this.appliedColorKey[i] = key;
      bodyColor(i, flags[i], i === this.selected, color);
      for (const [mesh, j] of this.instancesOfBody[i]) {
        mesh.setColorAt(j, color);
        touched.add(mesh);
      }
    }
    for (const mesh of touched) mesh.instanceColor.needsUpdate = true;
  }

  applyOverlays(poses, flags) {
    const contacts = this.rec.contacts(this.frame);
    const count = Math.min(contacts.length / 7, Math.max(this.rec.maxContacts, 1));
    const points = this.contactPoints.geometry.attributes.position;
    const normals = this.contactNormals.geometry.attributes.position;
    const length = this.sceneRadius * 0.05;
    for (let c = 0; c < count; ++c) {
      const o = 7 * c;
      points.array.set(contacts.subarray(o, o + 3), 3 * c);
      normals.array.set(contacts.subarray(o, o + 3), 6 * c);
      for (let a = 0; a < 3; ++a) normals.array[6 * c + 3 + a] = contacts[o + a] + length * contacts[o + 3 + a];
    }
    points.needsUpdate = normals.needsUpdate = true;
    this.contactPoints.geometry.setDrawRange(0, count);
    this.contactNormals.geometry.setDrawRange(0, 2 * count);

    const constraints = this.header.constraints ?? [];
    const states = this.rec.constraintFlags(this.frame);
    const position = this.constraintLines.geometry.attributes.position;
    const colors = this.constraintLines.geometry.attributes.color;
    const v = new THREE.Vector3();
    const on = new THREE.Color(0xffd84a), off = new THREE.Color(0xff4a4a);
    constraints.forEach((c, i) => {
      const s = states[i];
      const enabled = !(s & CONSTRAINT_KNOWN) || (s & CONSTRAINT_ENABLED);
      const gone = (c.body1 >= 0 && !(flags[c.body1] & FLAG_ADDED)) || (c.body2 >= 0 && !(flags[c.body2] & FLAG_ADDED));
      const ends = [[c.body1, c.point1], [c.body2, c.point2]];
      ends.forEach(([b, p], e) => {
        worldPoint(poses, b, p, v);
        position.array.set(gone ? [0, 0, 0] : [v.x, v.y, v.z], 6 * i + 3 * e);
        colors.array.set(enabled ? [on.r, on.g, on.b] : [off.r, off.g, off.b], 6 * i + 3 * e);
      });
    });
    position.needsUpdate = colors.needsUpdate = true;
  }

  pick(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1);
    const raycaster = new THREE.Raycaster();
    raycaster.setFromCamera(ndc, this.camera);
    const hit = raycaster.intersectObjects(this.meshes, false).find((h) => h.instanceId !== undefined);
    this.select(hit ? hit.object.userData.bodies[hit.instanceId] : -1);
  }

  select(i) {
    this.selected = i;
    this.applyColors(this.rec.flags(this.frame));
    this.updateInfo();
    this.dirty = true;
  }

  updateInfo() {
    const info = $('info');
    if (this.selected < 0) { info.textContent = ''; return; }
    const i = this.selected, k = this.frame;
    const body = this.header.bodies[i];
    const p = this.rec.poses(k), f = this.rec.flags(k)[i];
    // Velocity from the poses (the recording holds no velocities): backward difference.
    // (Forward difference at step 0; unknown when the neighbouring frame is not loaded.)
    const a = k > 0 ? k - 1 : k, b = k > 0 ? k : Math.min(k + 1, this.rec.frameCount - 1);
    const known = this.rec.has(a) && this.rec.has(b);
    const pa = known ? this.rec.poses(a) : p, pb = known ? this.rec.poses(b) : p;
    const span = (b - a) * this.header.dt;
    const vel = [0, 1, 2].map((c) => (span > 0 ? (pb[7 * i + c] - pa[7 * i + c]) / span : 0));
    const fmt = (v) => v.map((x) => x.toFixed(3).padStart(8)).join(' ');
    const flagWords = [f & FLAG_ADDED ? 'in the world' : 'removed',
      f & FLAG_ACTIVE ? 'awake' : 'asleep', ...(f & FLAG_QUARANTINED ? ['quarantined'] : [])];
    info.textContent = [
      `body      ${body.name}`,
      `motion    ${motionOfFlags(f)}${body.motion !== motionOfFlags(f) ? ` (was ${body.motion})` : ''}`,
      `position  ${fmt(Array.from(p.subarray(7 * i, 7 * i + 3)))} m`,
      `rotation  ${fmt(Array.from(p.subarray(7 * i + 3, 7 * i + 7)))}`,
      known ? `velocity  ${fmt(vel)} m/s (from frames)` : 'velocity  (previous frame not loaded)',
      `flags     ${flagWords.join(', ')}`,
    ].join('\n');
  }

  loop(now) {
    requestAnimationFrame(this.loop);
    if (this.playing) {
      this.accumulated += ((now - this.clock) / 1000) * this.speed;
      this.clock = now;
      const advance = Math.floor(this.accumulated / this.header.dt);
      const contacts = this.header.contacts && this.contactsVisible();
      // Keep about two seconds of steps ahead coming in.
      this.rec.prefetch(this.frame, Math.ceil((2 * this.speed) / this.header.dt), { contacts });
      if (advance > 0) {
        const last = this.rec.frameCount - 1, wanted = Math.min(this.frame + advance, last);
        const ready = (j) => this.rec.has(j) && (!contacts || this.rec.hasContacts(j));
        // The furthest step up to the one due that is in (chunks arrive in order ahead).
        let next = wanted;
        while (next > this.frame && !ready(next)) next -= 1;
        if (next < wanted) {
          // The step due is not in yet: wait for it (the clock does not run ahead meanwhile).
          this.accumulated = 0;
          this.stalls += 1;
          this.rec.load(wanted, { contacts }).catch((e) => this.failed(e));
        } else {
          this.accumulated -= advance * this.header.dt;
        }
        if (next > this.frame) {
          this.show(next);
          if (next === last) this.pause();
        }
      }
    }
    if (this.dirty) {
      this.renderer.render(this.scene, this.camera);
      this.renders += 1;
      this.dirty = false;
    }
  }

  // Page coordinates (CSS px) of the point p of world space.
  project(p) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = p.clone().project(this.camera);
    return [rect.left + ((ndc.x + 1) / 2) * rect.width, rect.top + ((1 - ndc.y) / 2) * rect.height];
  }
}

// The test hook (docs/viewer.md): what a browser test needs to check the page exactly.
function installHook(viewer, loadMs, loadPhases) {
  const indexOf = (name) => {
    const i = viewer.bodyIndex.get(name);
    if (i === undefined) throw new Error(`no body named "${name}"`);
    return i;
  };
  window.atollViewer = {
    ready: true,
    loadMs,
    loadPhases,
    version: viewer.rec.version,
    frameCount: viewer.rec.frameCount,
    bodyCount: viewer.rec.bodyCount,
    softBodyCount: viewer.rec.softBodyCount,
    get frame() { return viewer.frame; },
    /** Shows step k (0 … frameCount − 1) and renders it: resolves to the step shown, once its
     * frame (and its contacts when they are shown) has arrived. */
    async seek(k) {
      viewer.pause();
      await viewer.seek(k);
      viewer.renderer.render(viewer.scene, viewer.camera);
      viewer.dirty = false; // rendered: the animation loop need not draw it again
      return viewer.frame;
    },
    /** seek(k) timed: resolves to { step, inMs (until the frame is in and applied), renderMs
     * (drawing it, until the GPU is done) }. */
    async timedSeek(k) {
      viewer.pause();
      const t0 = performance.now();
      const step = await viewer.seek(k);
      const t1 = performance.now();
      viewer.renderer.render(viewer.scene, viewer.camera);
      const gl = viewer.renderer.getContext();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      viewer.dirty = false;
      return { step, inMs: t1 - t0, renderMs: performance.now() - t1 };
    },
    /** Chunks of frames held now, and frames per chunk (1 chunk: the whole recording). */
    cache() { return { chunks: viewer.rec.chunksHeld(), chunkFrames: viewer.rec.chunkFrames ?? viewer.rec.frameCount,
      maxChunks: viewer.rec.maxChunks ?? 1, bytesFetched: viewer.rec.bytesFetched ?? 0 }; },
    play() { viewer.play(); },
    pause() { viewer.pause(); },
    /** Page coordinates (CSS px) of the body's recorded position in the current frame. */
    projectBody(name) {
      const i = indexOf(name), p = viewer.rec.poses(viewer.frame);
      return viewer.project(new THREE.Vector3(p[7 * i], p[7 * i + 1], p[7 * i + 2]));
    },
    /** Page coordinates of the point p = [x, y, z] of the body's shape space, current frame. */
    projectBodyPoint(name, p) {
      const poses = viewer.rec.poses(viewer.frame);
      return viewer.project(worldPoint(poses, indexOf(name), p, new THREE.Vector3()));
    },
    /** The colour [r, g, b] (0–255) drawn at page point (x, y), after rendering the view. */
    pixelAt(x, y) {
      viewer.renderer.render(viewer.scene, viewer.camera);
      const canvas = viewer.renderer.domElement;
      const rect = canvas.getBoundingClientRect();
      const px = Math.floor(((x - rect.left) / rect.width) * canvas.width);
      const py = Math.floor(((y - rect.top) / rect.height) * canvas.height);
      const gl = viewer.renderer.getContext();
      const out = new Uint8Array(4);
      gl.readPixels(px, canvas.height - 1 - py, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
      return [out[0], out[1], out[2]];
    },
    /** The soft bodies drawn: [{ name, mode ('mesh', 'lines' or 'points'), visible, color
     * [r, g, b] (0–1), positions (the vertex buffer drawn, x y z per vertex) }]. */
    softBodies() {
      return viewer.softBodies.map((soft) => ({ name: soft.name, mode: soft.mode, visible: soft.objects[0].visible,
        color: soft.objects[0].material.color.toArray(), positions: Array.from(soft.position.array) }));
    },
    /** Page coordinates of vertex v of the soft body `name` as drawn in the current frame. */
    projectSoftVertex(name, v) {
      const soft = viewer.softBodies.find((b) => b.name === name);
      if (!soft) throw new Error(`no soft body named "${name}"`);
      const a = soft.position.array;
      return viewer.project(new THREE.Vector3(a[3 * v], a[3 * v + 1], a[3 * v + 2]));
    },
    /** The part types drawn (one InstancedMesh per shape part), sorted, without repeats. */
    partTypes() { return [...new Set(viewer.meshes.map((m) => m.userData.partType))].sort(); },
    /** The recorded pose [x, y, z, qx, qy, qz, qw] of a body in the current frame. */
    bodyPose(name) { const i = indexOf(name); return Array.from(viewer.rec.poses(viewer.frame).subarray(7 * i, 7 * i + 7)); },
    /** The camera: view and projection matrices (column-major) and the canvas rectangle. */
    camera() {
      viewer.camera.updateMatrixWorld();
      const r = viewer.renderer.domElement.getBoundingClientRect();
      return { view: viewer.camera.matrixWorldInverse.toArray(), projection: viewer.camera.projectionMatrix.toArray(),
        rect: { left: r.left, top: r.top, width: r.width, height: r.height } };
    },
    /** Points per series of each plot: { "kinetic energy (J)": { "kinetic energy": 601 }, … }. */
    plotPointCounts() {
      return Object.fromEntries(viewer.plots.map((p) => [p.title, Object.fromEntries(p.series.map((s) => [s.name, s.values.length]))]));
    },
    /** The selected body: { name, motion, text } or null. */
    selectedBody() {
      if (viewer.selected < 0) return null;
      const f = viewer.rec.flags(viewer.frame)[viewer.selected];
      return { name: viewer.header.bodies[viewer.selected].name, motion: motionOfFlags(f), text: $('info').textContent };
    },
    /** Selects the body under a page point (as a click does); returns its name or null. */
    pick(x, y) { viewer.pick(x, y); return this.selectedBody()?.name ?? null; },
    contactsShown() { return viewer.contactPoints.visible ? viewer.contactPoints.geometry.drawRange.count : 0; },
    /** Plays from step `from` (default 0) for `ms` milliseconds; resolves to { fps, frames,
     * updateMsPerFrame (showing a step: instance matrices, colours, overlays, plot markers),
     * stalls (playback frames that waited for a chunk) }. */
    async measurePlayback(ms, from = 0) {
      await viewer.seek(from);
      return new Promise((resolve) => {
        const renders = viewer.renders, startFrame = viewer.frame, stalls = viewer.stalls;
        let updates = 0, updateMs = 0;
        const show = viewer.show.bind(viewer);
        viewer.show = (k) => { const t = performance.now(); show(k); updateMs += performance.now() - t; updates += 1; };
        const t0 = performance.now();
        viewer.play();
        setTimeout(() => {
          viewer.pause();
          viewer.show = show;
          const seconds = (performance.now() - t0) / 1000;
          resolve({ fps: (viewer.renders - renders) / seconds, frames: viewer.frame - startFrame,
            updateMsPerFrame: updates ? updateMs / updates : 0, stalls: viewer.stalls - stalls });
        }, ms);
      });
    },
  };
}

// Load phases, in ms since the navigation started (performance.now()).
async function start() {
  const phases = { scriptStartMs: performance.now() };
  let viewer = null;
  try {
    const recording = await openRecording();
    if (recording.headerInMs !== undefined) phases.headerInMs = recording.headerInMs;
    phases.firstDataMs = performance.now(); // the header, the figures and the first frame are in
    viewer = new Viewer(recording);
    phases.plotsDrawnMs = performance.now(); // the constructor drew the plots, every step's figures
    const t1 = performance.now();
    viewer.renderer.render(viewer.scene, viewer.camera);
    // Reading one pixel waits for the GPU: the first frame is on screen.
    const gl = viewer.renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    phases.firstRenderMs = performance.now() - t1;
    phases.firstFrameShownMs = performance.now();
  } catch (e) {
    showError(e.message);
    window.atollViewer = { ready: false, error: e.message };
    return;
  }
  phases.completeMs = performance.now();
  installHook(viewer, phases.completeMs, phases);
}

start();
