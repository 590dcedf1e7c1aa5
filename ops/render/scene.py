"""The room, the camera and the ray caster of ops/render/mannequin.py.

Primitives (rounded cones and ellipsoids) are intersected analytically, with
numpy, one primitive at a time over the pixels its bounding sphere covers. The
room (a wooden floor, a plaster wall with a baseboard, a door and a framed
poster) is shaded once; each frame shades the person, the shadow the person
casts from the key light and the darkening on the floor where the person is.
World frame: Y is up, the floor is Y = 0, metres; the camera looks along +Z.
"""

import math

import numpy as np

WALL_Z = 2.2  # the wall behind the person, facing the camera


def srgb_to_linear(c):
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c):
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055)


def to_bytes(linear):
    """Linear RGB -> sRGB bytes."""
    return (linear_to_srgb(linear) * 255 + 0.5).astype(np.uint8)


def normalize(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def dot_rows(a, b):
    return np.einsum("ij,ij->i", a, b)


class Noise:
    """Smooth 2-D value noise from a fixed seed, for the room's textures."""

    def __init__(self, seed, size=256):
        self.size = size
        self.table = np.random.default_rng(seed).random((size, size))

    def __call__(self, u, v):
        x0, y0 = np.floor(u), np.floor(v)
        fx, fy = u - x0, v - y0
        fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
        x0, y0 = x0.astype(np.int64) % self.size, y0.astype(np.int64) % self.size
        x1, y1 = (x0 + 1) % self.size, (y0 + 1) % self.size
        t = self.table
        a = t[y0, x0] * (1 - fx) + t[y0, x1] * fx
        b = t[y1, x0] * (1 - fx) + t[y1, x1] * fx
        return a * (1 - fy) + b * fy

    def fbm(self, u, v, octaves=4):
        total, amplitude = 0.0, 0.5
        for k in range(octaves):
            total = total + amplitude * self(u * 2 ** k + 17.3 * k, v * 2 ** k + 5.1 * k)
            amplitude *= 0.5
        return total


# Primitives. intersect(ro, rd) takes a ray origin ro, (3,) or (N, 3), and unit
# directions rd (N, 3); it returns the distance t (inf for a miss), the unit
# normal and `aux`, which the primitive's colour function reads. bound_c and
# bound_r are a bounding sphere.


class RoundCone:
    """A capsule from pa (radius ra) to pb (radius rb), using Inigo Quilez's
    analytic intersection. aux: position along the axis, 0 at pa, 1 at pb."""

    def __init__(self, pa, pb, ra, rb, color, spec=0.08):
        self.pa, self.pb = np.asarray(pa, float), np.asarray(pb, float)
        self.ra, self.rb = float(ra), float(rb)
        self.color, self.spec = color, spec
        self.bound_c = (self.pa + self.pb) / 2
        self.bound_r = np.linalg.norm(self.pb - self.pa) / 2 + max(self.ra, self.rb)

    def intersect(self, ro, rd):
        pa, ra, rb = self.pa, self.ra, self.rb
        ba = self.pb - pa
        oa = np.broadcast_to(ro - pa, rd.shape)
        ob = np.broadcast_to(ro - self.pb, rd.shape)
        rr = ra - rb
        m0 = ba @ ba
        m1 = oa @ ba
        m2 = rd @ ba
        m3 = dot_rows(rd, oa)
        m5 = dot_rows(oa, oa)
        m6 = dot_rows(rd, ob)
        m7 = dot_rows(ob, ob)
        d2 = m0 - rr * rr
        k2 = d2 - m2 * m2
        k1 = d2 * m3 - m1 * m2 + m2 * rr * ra
        k0 = d2 * m5 - m1 * m1 + m1 * rr * ra * 2.0 - m0 * ra * ra
        h = k1 * k1 - k0 * k2
        hit = h >= 0
        t = np.full(len(rd), np.inf)
        normal = np.zeros_like(rd)
        with np.errstate(invalid="ignore", divide="ignore"):
            tb = (-np.sqrt(np.maximum(h, 0)) - k1) / k2
            y = m1 - ra * rr + tb * m2
            side = hit & (y > 0) & (y < d2) & (tb > 0)
            t = np.where(side, tb, t)
            normal = np.where(side[:, None], d2 * (oa + tb[:, None] * rd) - ba * y[:, None], normal)
            caps = hit & ~side
            h1 = m3 * m3 - m5 + ra * ra
            h2 = m6 * m6 - m7 + rb * rb
            t1 = -m3 - np.sqrt(np.maximum(h1, 0))
            t2 = -m6 - np.sqrt(np.maximum(h2, 0))
            c1 = caps & (h1 > 0) & (t1 > 0)
            c2 = caps & (h2 > 0) & (t2 > 0)
            use2 = c2 & (~c1 | (t2 < t1))
            use1 = c1 & ~use2
            t = np.where(use1, t1, t)
            normal = np.where(use1[:, None], oa + t1[:, None] * rd, normal)
            t = np.where(use2, t2, t)
            normal = np.where(use2[:, None], ob + t2[:, None] * rd, normal)
        hit = np.isfinite(t)
        normal = normalize(np.where(hit[:, None], normal, np.array([0.0, 1.0, 0.0])))
        p = ro + np.where(hit, t, 0.0)[:, None] * rd
        aux = np.where(hit, ((p - pa) @ ba) / m0, 0.0)
        return t, normal, aux


class Ellipsoid:
    """An ellipsoid with centre c, local axes the rows of R (forward, up,
    lateral) and radii r. aux: the hit point on the local unit sphere."""

    def __init__(self, c, R, r, color, spec=0.08):
        self.c, self.R, self.r = np.asarray(c, float), np.asarray(R, float), np.asarray(r, float)
        self.color, self.spec = color, spec
        self.bound_c, self.bound_r = self.c, float(self.r.max())

    def intersect(self, ro, rd):
        d = (rd @ self.R.T) / self.r
        o = np.broadcast_to(((ro - self.c) @ self.R.T) / self.r, d.shape)
        a = dot_rows(d, d)
        b = dot_rows(o, d)
        h = b * b - a * (dot_rows(o, o) - 1)
        with np.errstate(invalid="ignore"):
            t = (-b - np.sqrt(np.maximum(h, 0))) / a
        ok = (h >= 0) & (t > 0)
        t = np.where(ok, t, np.inf)
        q = o + np.where(ok, t, 0)[:, None] * d
        return t, normalize((q / self.r) @ self.R), q


def solid(c):
    linear = srgb_to_linear(c)
    return lambda aux, p: np.broadcast_to(linear, p.shape)


def split(c0, c1, at):
    """c0 along a rounded cone up to fraction `at`, c1 beyond (clothing ending mid-limb)."""
    l0, l1 = srgb_to_linear(c0), srgb_to_linear(c1)
    return lambda aux, p: np.where((aux < at)[:, None], l0, l1)


def head_color(skin, hair):
    """Skin on the face, hair on the crown and the back of the head."""
    skin, hair = srgb_to_linear(skin), srgb_to_linear(hair)

    def color(q, p):  # q: local unit-sphere coordinates (forward, up, lateral)
        f, u = q[:, 0], q[:, 1]
        is_hair = (u > 0.45 - 0.35 * np.clip(-f, 0, 1)) | ((f < -0.25) & (u > -0.35))
        return np.where(is_hair[:, None], hair, skin)
    return color


class Camera:
    """A pinhole camera at `eye` looking at `target`, with no roll."""

    def __init__(self, eye, target, width, height, vfov_deg):
        self.eye = np.asarray(eye, float)
        self.f = normalize(np.asarray(target, float) - self.eye)
        self.r = normalize(np.cross(self.f, [0.0, 1.0, 0.0]))
        self.u = np.cross(self.r, self.f)
        self.w, self.h = width, height
        self.fpx = (height / 2) / math.tan(math.radians(vfov_deg) / 2)

    def rays(self):
        """One unit ray per pixel centre, row by row."""
        x = (np.arange(self.w) + 0.5 - self.w / 2) / self.fpx
        y = (np.arange(self.h) + 0.5 - self.h / 2) / self.fpx
        xx, yy = np.meshgrid(x, y)
        d = self.f + xx[..., None] * self.r - yy[..., None] * self.u
        return normalize(d.reshape(-1, 3))

    def project(self, p):
        """A world point -> pixel coordinates (x, y)."""
        q = np.asarray(p, float) - self.eye
        z = q @ self.f
        return self.w / 2 + self.fpx * (q @ self.r) / z, self.h / 2 - self.fpx * (q @ self.u) / z


class Scene:
    """The room seen by a camera on the -Z side of the person (who stands near
    the origin), lit by a key light from above the camera's left shoulder.

    footprint: (centre x, centre z, spread x, spread z, yaw) of the darkening
    on the floor under the person, Gaussian along the person's forward and
    right (metres, in the person's frame), the person turned by yaw (radians)
    about the vertical through the origin, towards the camera."""

    def __init__(self, camera, footprint):
        self.cam = camera
        self.wall = (np.array([0.0, 0.0, -1.0]), -WALL_Z)  # the plane p · n = d
        toward_camera = np.array([0.0, 0.0, -1.0])
        self.light = normalize(0.6 * toward_camera + np.array([0, 1.0, 0]) - 0.5 * self.cam.r)
        self.fill = normalize(-self.cam.f + np.array([0, 0.3, 0]))
        self.rays = self.cam.rays()
        self.depth, normal, color, floor, p = self.room(Noise(1234), Noise(98765))
        # The room lit, and in the person's shadow (no key light), as sRGB bytes.
        key = 0.85 * np.clip(normal @ self.light, 0, None)
        rest = self.ambient(normal)
        cx, cz, sx, sz, yaw = footprint
        c, s = math.cos(yaw), math.sin(yaw)
        ahead, right = c * p[floor, 0] - s * p[floor, 2], s * p[floor, 0] + c * p[floor, 2]
        contact = np.ones(len(p))
        contact[floor] = 1 - 0.35 * np.exp(-((ahead - cx) ** 2 / sx + (right - cz) ** 2 / sz))
        self.lit = to_bytes(color * ((key + rest) * contact)[:, None])
        self.shaded = to_bytes(color * (rest * contact)[:, None])
        # The points the key light reaches, as shadow rays: their origins, and
        # their coordinates across the light, for culling by bounding spheres.
        self.sunny = np.flatnonzero(key > 0)
        self.shadow_ro = p[self.sunny] + 1e-3 * normal[self.sunny]
        self.across = self.light_basis()
        self.shadow_u, self.shadow_v, self.shadow_along = (self.shadow_ro @ self.across.T).T.copy()

    def ambient(self, normal):
        """Fill and sky light on surfaces with these normals."""
        return 0.22 * np.clip(normal @ self.fill, 0, None) + 0.28 * (0.8 + 0.2 * normal[:, 1])

    def light_basis(self):
        """Rows: two unit vectors across the key light, then the light's direction."""
        a = normalize(np.cross(self.light, [1.0, 0, 0]))
        return np.stack([a, np.cross(self.light, a), self.light])

    def room(self, noise, noise2):
        """Depth, normal, colour (linear), floor mask and point of the empty room, per pixel."""
        ro, rd = self.cam.eye, self.rays
        wn, wd = self.wall
        with np.errstate(divide="ignore", invalid="ignore"):
            tf = -ro[1] / rd[:, 1]
            tw = (wd - ro @ wn) / (rd @ wn)
        tf, tw = np.where(tf > 0, tf, np.inf), np.where(tw > 0, tw, np.inf)
        floor = tf < tw
        t = np.where(floor, tf, tw)
        p = ro + t[:, None] * rd
        normal = np.where(floor[:, None], np.array([0, 1.0, 0]), wn * -np.sign(self.cam.f @ wn))
        col = np.zeros((len(rd), 3))
        # floor: wooden planks with grain and dark seams
        along, across = p[floor] @ self.cam.r, p[floor] @ wn
        plank = np.floor(along / 0.18)
        grain = noise.fbm(across * 3 + plank * 13.7, along * 40, 3)
        tint = 0.8 + 0.25 * noise((plank * 7.1) % 256, plank * 3.3)[:, None]
        c = srgb_to_linear([0.62, 0.45, 0.3]) * tint * (0.8 + 0.35 * grain[:, None])
        c[np.abs(along / 0.18 - np.round(along / 0.18)) * 0.18 < 0.004] *= 0.45
        col[floor] = c
        # wall: plaster, a baseboard, a framed poster and a door
        u, v = p[~floor] @ self.cam.r, p[~floor][:, 1]
        c = srgb_to_linear([0.86, 0.84, 0.78]) * (0.9 + 0.15 * noise2.fbm(u * 8, v * 8, 4)[:, None])
        c[v < 0.12] = srgb_to_linear([0.95, 0.95, 0.93])
        poster = (u > 1.1) & (u < 1.9) & (v > 1.2) & (v < 2.0)
        frame = (u > 1.07) & (u < 1.93) & (v > 1.17) & (v < 2.03) & ~poster
        c[poster] = srgb_to_linear([0.3, 0.5, 0.45]) * (0.7 + 0.6 * noise.fbm(u[poster] * 5, v[poster] * 5, 3))[:, None]
        c[frame] = srgb_to_linear([0.15, 0.12, 0.1])
        door = (u > -2.4) & (u < -1.5) & (v < 2.05)
        c[door] = srgb_to_linear([0.55, 0.38, 0.25]) * (0.85 + 0.3 * noise2.fbm(u[door] * 2, v[door] * 30, 3))[:, None]
        col[~floor] = c
        return t, normal, col, floor, p

    def pixels_near(self, prim):
        """Indices of the pixels whose rays pass through the primitive's bounding sphere."""
        W, H = self.cam.w, self.cam.h
        to_centre = prim.bound_c - self.cam.eye
        distance = np.linalg.norm(to_centre)
        if distance <= prim.bound_r:
            return np.arange(W * H)
        px, py = self.cam.project(prim.bound_c)
        radius = self.cam.fpx * math.tan(math.asin(prim.bound_r / distance)) * 1.3 + 2
        x0, x1 = int(max(0, px - radius)), int(min(W, px + radius + 1))
        y0, y1 = int(max(0, py - radius)), int(min(H, py + radius + 1))
        if x0 >= x1 or y0 >= y1:
            return np.zeros(0, np.int64)
        m = (np.arange(y0, y1)[:, None] * W + np.arange(x0, x1)[None, :]).ravel()
        along = self.rays[m] @ to_centre
        return m[distance * distance - along * along <= prim.bound_r * prim.bound_r]

    def shadowed(self, prims):
        """Indices of the room's pixels in the person's shadow."""
        centres = np.array([prim.bound_c for prim in prims]) @ self.across.T
        radii = np.array([prim.bound_r for prim in prims])
        u, v, along = self.shadow_u, self.shadow_v, self.shadow_along
        # first the rays that pass the whole person's box across the light
        low, high = (centres[:, :2] - radii[:, None]).min(0), (centres[:, :2] + radii[:, None]).max(0)
        near = np.flatnonzero((u >= low[0]) & (u <= high[0]) & (v >= low[1]) & (v <= high[1]))
        u, v, along = u[near], v[near], along[near]
        blocked = np.zeros(len(near), bool)
        for prim, (cu, cv, cl), r in zip(prims, centres, radii):
            m = np.flatnonzero(~blocked & ((u - cu) ** 2 + (v - cv) ** 2 <= r * r) & (along < cl + r))
            if len(m):
                ro = self.shadow_ro[near[m]]
                t = prim.intersect(ro, np.broadcast_to(self.light, ro.shape))[0]
                blocked[m[np.isfinite(t)]] = True
        return self.sunny[near[blocked]]

    def render(self, prims):
        """An RGB frame (H, W, 3, uint8) of the primitives in the room."""
        ro, rd = self.cam.eye, self.rays
        n = len(rd)
        depth = self.depth.copy()
        normal, color, spec = np.zeros((n, 3)), np.zeros((n, 3)), np.zeros(n)
        for prim in prims:
            m = self.pixels_near(prim)
            if len(m) == 0:
                continue
            t, nn, aux = prim.intersect(ro, rd[m])
            closer = t < depth[m]
            if closer.any():
                idx = m[closer]
                depth[idx], normal[idx], spec[idx] = t[closer], nn[closer], prim.spec
                color[idx] = prim.color(aux[closer], ro + t[closer, None] * rd[idx])
        person = np.flatnonzero(depth < self.depth)
        pn = normal[person]
        light = 0.85 * np.clip(pn @ self.light, 0, None) + self.ambient(pn)
        specular = spec[person] * np.clip(dot_rows(pn, normalize(self.light - rd[person])), 0, None) ** 30
        frame = self.lit.copy()
        shadow = self.shadowed(prims)
        frame[shadow] = self.shaded[shadow]
        frame[person] = to_bytes(color[person] * light[:, None] + 0.6 * specular[:, None])
        return frame.reshape(self.cam.h, self.cam.w, 3)
