/// How far inside a capsule's outline (seen from the camera) point `p` is, where it lies
/// behind the capsule's axis: 0 in plain view … 1 hidden. Points are in camera
/// coordinates; the capsule runs from `a` to `b` with `radius` metres.
private func cover(_ p: Vec3, _ a: Vec3, _ b: Vec3, radius: Double, margin: Double) -> Double {
    let pz = max(p.z, 0.05), az = max(a.z, 0.05), bz = max(b.z, 0.05)
    let ax = a.x / az, ay = a.y / az, dx = b.x / bz - ax, dy = b.y / bz - ay
    let t = clamp(((p.x / pz - ax) * dx + (p.y / pz - ay) * dy) / max(dx * dx + dy * dy, 1e-12), 0, 1)
    let ex = p.x / pz - ax - t * dx, ey = p.y / pz - ay - t * dy
    let axis = a.z + (b.z - a.z) * t, outline = radius / max(axis, 0.05)
    guard ex * ex + ey * ey < outline * outline, p.z > axis + margin else { return 0 }
    return clamp((outline - (ex * ex + ey * ey).squareRoot()) / (0.4 * outline), 0, 1) * clamp((p.z - axis - margin) / 0.04, 0, 1)
}

/// How far `p` is behind the bone from `a` to `b`: only a bone nearer the camera can hide it.
private func behindBone(_ p: Vec3, _ a: Vec3, _ b: Vec3, radius: Double) -> Double {
    p.z - 0.02 > min(a.z, b.z) ? cover(p, a, b, radius: radius, margin: 0.02) : 0
}

/// How hidden each of the 33 landmarks is from the camera (0 in plain view … 1
/// hidden), written into `hidden`: behind the trunk, behind a limb of the other side,
/// or the face and far ear turned away. `camera` holds the landmarks in camera coordinates.
func occlusion(into hidden: inout [Double], _ skeleton: Skeleton, _ camera: [Vec3], _ view: CameraView, _ body: BodyShape) {
    // The trunk: an elliptic cylinder between the hip and shoulder midpoints, seen as wide as its section across the view.
    let wide = body.shoulderHalf * view.right.dot(skeleton.trunk.right)
    let deep = 0.11 * body.height / 1.75 * view.right.dot(skeleton.trunk.forward)
    let halfWidth = (wide * wide + deep * deep).squareRoot()
    let hipMid = (camera[23] + camera[24]) * 0.5, shoulderMid = (camera[11] + camera[12]) * 0.5
    let low = hipMid + (hipMid - shoulderMid) * 0.1, high = shoulderMid + (shoulderMid - hipMid) * 0.08
    let nearest = min(low.z, high.z)
    for i in 0..<33 {
        let own = i == 11 || i == 12 || i == 23 || i == 24, margin = own ? 0.02 : 0.03
        hidden[i] = camera[i].z <= nearest + margin ? 0 : cover(camera[i], low, high, radius: own ? 0.6 * halfWidth : halfWidth, margin: margin)
    }
    // Limb landmarks behind the other side's thigh, shin, upper arm or forearm.
    let s = body.height / 1.75
    for i in 13...32 where i != 23 && i != 24 {
        let o = i % 2 == 1 ? 1 : 0, p = camera[i]
        let legs = max(behindBone(p, camera[23 + o], camera[25 + o], radius: 0.075 * s), behindBone(p, camera[25 + o], camera[27 + o], radius: 0.055 * s))
        let arms = max(behindBone(p, camera[11 + o], camera[13 + o], radius: 0.05 * s), behindBone(p, camera[13 + o], camera[15 + o], radius: 0.04 * s))
        hidden[i] = max(hidden[i], max(legs, arms))
    }
    // The face turned away, and the far ear (with the far eye and mouth corner half-hidden).
    let face = clamp((skeleton.headForward.dot(view.forward) - 0.1) / 0.4, 0, 1)
    for i in 0...10 { hidden[i] = max(hidden[i], face) }
    let earOut = (skeleton.points[7] - skeleton.points[8]).unit().dot(view.forward)
    let farLeft = clamp((earOut - 0.3) / 0.4, 0, 1), farRight = clamp((-earOut - 0.3) / 0.4, 0, 1)
    hidden[7] = max(hidden[7], farLeft)
    hidden[8] = max(hidden[8], farRight)
    for i in [2, 3, 9] { hidden[i] = max(hidden[i], 0.6 * farLeft) }
    for i in [5, 6, 10] { hidden[i] = max(hidden[i], 0.6 * farRight) }
    // The hand points share the wrist's cover.
    for i in 17...22 { hidden[i] = max(hidden[i], hidden[15 + (i - 17) % 2]) }
}
