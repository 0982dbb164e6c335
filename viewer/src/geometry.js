// three.js geometry for the recording's shape parts (docs/recording-format.md, "Shapes"), in
// the primitive's own space, and the part's placement matrix in the body's shape space.
import * as THREE from 'three';

function triangleGeometry(vertices, triangles) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(vertices, 3));
  geometry.setIndex(triangles);
  // Flat normals: hulls and meshes have sharp edges.
  const flat = geometry.toNonIndexed();
  flat.computeVertexNormals();
  geometry.dispose();
  return flat;
}

function heightFieldGeometry(part) {
  const n = part.sample_count;
  const h = part.heights;
  const vertices = new Float32Array(n * n * 3);
  for (let z = 0; z < n; ++z)
    for (let x = 0; x < n; ++x) {
      const i = z * n + x;
      vertices[3 * i] = x;
      vertices[3 * i + 1] = h[i] ?? 0;
      vertices[3 * i + 2] = z;
    }
  const triangles = [];
  const hole = (x, z) => h[z * n + x] === null;
  for (let z = 0; z + 1 < n; ++z)
    for (let x = 0; x + 1 < n; ++x) {
      const a = z * n + x, b = (z + 1) * n + x, c = (z + 1) * n + x + 1, d = z * n + x + 1;
      if (!hole(x, z) && !hole(x, z + 1) && !hole(x + 1, z + 1)) triangles.push(a, b, c);
      if (!hole(x, z) && !hole(x + 1, z + 1) && !hole(x + 1, z)) triangles.push(a, c, d);
    }
  return triangleGeometry(vertices, triangles);
}

/** A BufferGeometry for one part, or throws for an unknown part type. */
export function partGeometry(part) {
  switch (part.type) {
    case 'box': {
      const [x, y, z] = part.half_extent;
      return new THREE.BoxGeometry(2 * x, 2 * y, 2 * z);
    }
    case 'sphere':
      return new THREE.SphereGeometry(part.radius, 20, 14);
    case 'capsule':
      return new THREE.CapsuleGeometry(part.radius, 2 * part.half_height, 6, 16);
    case 'cylinder':
      return new THREE.CylinderGeometry(part.radius, part.radius, 2 * part.half_height, 20);
    case 'convex_hull':
    case 'mesh':
      return triangleGeometry(part.vertices, part.triangles);
    case 'heightfield':
      return heightFieldGeometry(part);
    default:
      throw new Error(`unknown shape part type "${part.type}"`);
  }
}

/** Placement of a part in its body's shape space: translate · rotate · scale. */
export function partMatrix(part) {
  const [px, py, pz] = part.position ?? [0, 0, 0];
  const [qx, qy, qz, qw] = part.rotation ?? [0, 0, 0, 1];
  const [sx, sy, sz] = part.scale ?? [1, 1, 1];
  return new THREE.Matrix4().compose(
    new THREE.Vector3(px, py, pz),
    new THREE.Quaternion(qx, qy, qz, qw),
    new THREE.Vector3(sx, sy, sz),
  );
}

/** Whether the part must be drawn from both sides (open meshes, height fields, mirrors). */
export function partDoubleSided(part) {
  const [sx, sy, sz] = part.scale ?? [1, 1, 1];
  return part.type === 'mesh' || part.type === 'heightfield' || sx * sy * sz < 0;
}
