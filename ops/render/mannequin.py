#!/usr/bin/env python3
"""Renders a synthetic person doing squats, filmed from the side, with its ground truth.

There are no real workout videos to test with, so this draws one: a mannequin
built from rounded cones and ellipsoids (skin-coloured face with eyes, nose,
ears and hair, a blue shirt, dark shorts, white shoes) squatting in a room with
a wooden floor, a plaster wall, a door and a framed poster, lit by a key light
with cast shadows, fill and ambient light. The realistic look is deliberate:
MediaPipe's pose detector did not reliably find a plain grey figure on a plain
background, whereas it finds this one in every frame.

The knee angle (hip-knee-ankle) is exact by construction: 175° standing, the
--bottom-angle at the bottom of each rep, following a cosine in between; the
torso leans forward, and the arms reach forward, with the depth. Each rep takes
2 s, with 1 s standing still before the first and after the last. The ground
truth (--truth, JSON) gives the clip's exercise, camera view, fps, size and
frame count, and per rep when it starts, reaches its bottom and ends (ms from
the start of the video) with the knee angle and torso lean at the bottom.
`rep_count` is the number of movements drawn, whether or not a rules engine
should count them as reps (a 135° dip is no squat).

Rendering is a numpy ray caster (numpy is the only dependency); frames are piped
as raw RGB to the ffmpeg command, which encodes H.264 (yuv420p) MP4. The output
is deterministic: the textures come from fixed seeds, nothing else is random,
and the encoder runs on one thread (the same numpy and ffmpeg on the same kind
of CPU give the same bytes). Output files appear whole or not at all.

usage: mannequin.py --out clip.mp4 [--truth clip.truth.json] [--reps 5]
                    [--bottom-angle 80] [--fps 15] [--width 640 --height 480]
"""

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile

import numpy as np

STANDING_KNEE_ANGLE = 175.0  # degrees
PAD_S = 1.0                  # standing still before the first rep and after the last
REP_S = 2.0                  # one rep, down and up
CAMERA_DISTANCE = 3.2        # metres from the person
CAMERA_HEIGHT = 1.0
VERTICAL_FOV = 50.0          # degrees


def srgb_to_linear(c):
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c):
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055)


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
# normal and `aux`, which the primitive's colour function reads.


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
    skin, hair = srgb_to_linear(skin), srgb_to_linear(hair)

    def color(q, p):  # q: local unit-sphere coordinates (forward, up, lateral)
        f, u = q[:, 0], q[:, 1]
        is_hair = (u > 0.45 - 0.35 * np.clip(-f, 0, 1)) | ((f < -0.25) & (u > -0.35))
        return np.where(is_hair[:, None], hair, skin)
    return color


class Camera:
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


# The body. World frame: X is where the person faces, Y is up, Z is the
# person's right (the left side is at -Z); metres; the floor is Y = 0.

THIGH, SHANK, UPPER_ARM, FOREARM, TORSO = 0.45, 0.43, 0.30, 0.26, 0.50
SHOULDER_HALF, HIP_HALF, ANKLE_HEIGHT = 0.19, 0.13, 0.08

STYLE = dict(skin=(0.87, 0.68, 0.55), hair=(0.18, 0.11, 0.07), shirt=(0.15, 0.35, 0.7), shorts=(0.12, 0.12, 0.14),
             shoe=(0.92, 0.92, 0.9), eye_white=(0.95, 0.95, 0.95), iris=(0.12, 0.08, 0.05), lips=(0.65, 0.32, 0.3))
SLEEVE = 0.45   # fraction of the upper arm the shirt covers
SHORTS = 0.55   # fraction of the thigh the shorts cover


def tilted(angle):
    """The unit vector tilted forward (+X) from up (+Y) by angle (radians)."""
    return np.array([math.sin(angle), math.cos(angle), 0.0])


def torso_lean(knee_angle_deg):
    """The torso's forward lean from vertical (hip to shoulder), degrees, at a knee angle."""
    return 4 + 31 * (STANDING_KNEE_ANGLE - knee_angle_deg) / 95.0


def squat_pose(knee_angle_deg):
    """Joint positions for a knee angle (hip-knee-ankle, degrees); the torso
    lean, arms and head follow the squat's depth."""
    s = (STANDING_KNEE_ANGLE - knee_angle_deg) / 95.0  # depth, 1 at a 80° knee
    shank_tilt = math.radians(2.5) + s * math.radians(37.5)  # knee ahead of the ankle
    thigh_back = math.pi - math.radians(knee_angle_deg) - shank_tilt  # hip behind the knee
    lean = math.radians(torso_lean(knee_angle_deg))
    arm = math.radians(6 + 82 * s)      # shoulder flexion: arms reach forward
    elbow = math.radians(12 + 8 * s)
    J = {}
    for side, z in (("left", -HIP_HALF), ("right", HIP_HALF)):
        ankle = np.array([0.0, ANKLE_HEIGHT, z])
        knee = ankle + SHANK * tilted(shank_tilt)
        hip = knee + THIGH * np.array([-math.sin(thigh_back), math.cos(thigh_back), 0])
        J[side + "_ankle"], J[side + "_knee"], J[side + "_hip"] = ankle, knee, hip
        J[side + "_heel"] = ankle + np.array([-0.06, -0.05, 0])
        J[side + "_toe"] = ankle + np.array([0.17, -0.055, 0.02 * np.sign(z)])
    pelvis = (J["left_hip"] + J["right_hip"]) / 2
    spine = tilted(lean)
    J["pelvis"], J["spine"], J["torso_fwd"] = pelvis, spine, np.array([math.cos(lean), -math.sin(lean), 0.0])
    J["neck_base"] = pelvis + TORSO * spine
    shoulders = pelvis + (TORSO - 0.05) * spine
    for side, z in (("left", -1), ("right", 1)):
        shoulder = shoulders + np.array([0, 0, z * SHOULDER_HALF])
        elbow_at = shoulder + UPPER_ARM * normalize(np.array([math.sin(arm), -math.cos(arm), 0.07 * z]))
        hand_dir = normalize(np.array([math.sin(arm + elbow), -math.cos(arm + elbow), 0.02 * z]))
        J[side + "_shoulder"], J[side + "_elbow"] = shoulder, elbow_at
        J[side + "_wrist"], J[side + "_hand_dir"] = elbow_at + FOREARM * hand_dir, hand_dir
    pitch = lean * 0.35  # the head stays more upright than the torso
    J["head_up"], J["head_fwd"] = tilted(pitch), np.array([math.cos(pitch), -math.sin(pitch), 0.0])
    J["neck_top"] = J["neck_base"] + 0.09 * normalize(spine + J["head_up"])
    J["head_center"] = J["neck_top"] + 0.10 * J["head_up"] + 0.015 * J["head_fwd"]
    return J


def axes(fwd, up):
    return np.stack([fwd, up, np.cross(fwd, up)])


def body(J):
    """The mannequin in pose J, as a list of primitives."""
    st = STYLE
    skin, shirt, shorts, shoe = st["skin"], st["shirt"], st["shorts"], st["shoe"]
    P = []
    for side in ("left", "right"):
        hip, knee, ankle = J[side + "_hip"], J[side + "_knee"], J[side + "_ankle"]
        P.append(RoundCone(hip, knee, 0.085, 0.055, split(shorts, skin, SHORTS)))
        P.append(RoundCone(knee, ankle, 0.052, 0.036, solid(skin)))
        calf, down = knee + 0.33 * (ankle - knee), normalize(ankle - knee)
        back = np.cross(down, [0, 0, 1.0])
        back = back if back[0] < 0 else -back
        P.append(RoundCone(calf - 0.09 * down + 0.012 * back, calf + 0.1 * down + 0.008 * back, 0.05, 0.036,
                           solid(skin)))
        P.append(RoundCone(J[side + "_heel"], J[side + "_toe"], 0.045, 0.038, solid(shoe), spec=0.2))
        P.append(RoundCone(ankle + np.array([0, 0.02, 0]), (J[side + "_heel"] + J[side + "_toe"]) / 2,
                           0.045, 0.045, solid(shoe), spec=0.2))
        shoulder, elbow, wrist = J[side + "_shoulder"], J[side + "_elbow"], J[side + "_wrist"]
        P.append(RoundCone(shoulder, elbow, 0.055, 0.042, split(shirt, skin, SLEEVE)))
        P.append(RoundCone(elbow, wrist, 0.04, 0.03, solid(skin)))
        hand_dir = J[side + "_hand_dir"]
        palm = normalize(np.cross([0, 0, 1.0], hand_dir))
        P.append(Ellipsoid(wrist + 0.08 * hand_dir, np.stack([palm, hand_dir, np.cross(palm, hand_dir)]),
                           [0.045, 0.09, 0.022], solid(skin)))
    pelvis, spine = J["pelvis"], J["spine"]
    fwd = J["torso_fwd"]
    R = axes(fwd, spine)
    P.append(Ellipsoid(pelvis + 0.02 * spine - 0.005 * fwd, R, [0.115, 0.13, 0.175], solid(shorts)))
    P.append(Ellipsoid(pelvis + 0.19 * spine, R, [0.105, 0.17, 0.155], solid(shirt)))
    P.append(Ellipsoid(pelvis + 0.36 * spine + 0.01 * fwd, R, [0.115, 0.16, 0.185], solid(shirt)))
    P.append(RoundCone(J["left_shoulder"] - 0.01 * spine, J["right_shoulder"] - 0.01 * spine, 0.065, 0.065,
                       solid(shirt)))
    P.append(RoundCone(J["neck_base"] - 0.03 * spine, J["neck_top"] + 0.02 * J["head_up"], 0.05, 0.045, solid(skin)))
    head, up, ahead = J["head_center"], J["head_up"], J["head_fwd"]
    H = axes(ahead, up)
    lateral = H[2]
    P.append(Ellipsoid(head, H, [0.1, 0.118, 0.08], head_color(skin, st["hair"])))
    P.append(Ellipsoid(head - 0.055 * up + 0.035 * ahead, H, [0.06, 0.06, 0.062], solid(skin)))       # jaw
    P.append(Ellipsoid(head + 0.096 * ahead - 0.012 * up, H, [0.022, 0.03, 0.013], solid(skin)))      # nose
    P.append(Ellipsoid(head + 0.078 * ahead - 0.058 * up, H, [0.012, 0.006, 0.022], solid(st["lips"])))
    for z in (-1, 1):
        eye = head + 0.082 * ahead + 0.02 * up + z * 0.033 * lateral
        P.append(Ellipsoid(eye, H, [0.012, 0.01, 0.014], solid(st["eye_white"]), spec=0.4))
        P.append(Ellipsoid(eye + 0.007 * ahead, H, [0.008, 0.007, 0.007], solid(st["iris"]), spec=0.5))
        P.append(Ellipsoid(head + 0.09 * ahead + 0.045 * up + z * 0.034 * lateral, H, [0.008, 0.006, 0.02],
                           solid(st["hair"])))                                                         # eyebrow
        P.append(Ellipsoid(head + z * 0.078 * lateral - 0.005 * ahead, H, [0.02, 0.03, 0.014], solid(skin)))  # ear
    return P


class Scene:
    """The room and the camera, at the person's left (a side view). The empty
    room is shaded once; each frame shades the person and the shadow it casts."""

    def __init__(self, width, height):
        target = np.array([0.0, CAMERA_HEIGHT, 0.0])
        toward_camera = np.array([0.0, 0.0, -1.0])
        self.cam = Camera(target + CAMERA_DISTANCE * toward_camera, target, width, height, VERTICAL_FOV)
        self.wall = (toward_camera, -2.2)  # the wall plane p · n = -2.2, behind the person
        self.light = normalize(0.6 * toward_camera + np.array([0, 1.0, 0]) - 0.5 * self.cam.r)
        self.fill = normalize(-self.cam.f + np.array([0, 0.3, 0]))
        self.rays = self.cam.rays()
        self.depth, normal, color, floor, p = self.room(Noise(1234), Noise(98765))
        # The room lit, and in the person's shadow (no key light), as sRGB bytes.
        key = 0.85 * np.clip(normal @ self.light, 0, None)
        rest = self.ambient(normal)
        contact = np.ones(len(p))  # darkening on the floor around the feet
        contact[floor] = 1 - 0.35 * np.exp(-((p[floor, 0] - 0.05) ** 2 / 0.08 + p[floor, 2] ** 2 / 0.1))
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
        """Indices of the pixels whose rays may hit the primitive (its bounding sphere, projected generously)."""
        W, H = self.cam.w, self.cam.h
        px, py = self.cam.project(prim.bound_c)
        radius = self.cam.fpx * math.tan(math.asin(prim.bound_r / np.linalg.norm(prim.bound_c - self.cam.eye))) * 1.3 + 2
        x0, x1 = int(max(0, px - radius)), int(min(W, px + radius + 1))
        y0, y1 = int(max(0, py - radius)), int(min(H, py + radius + 1))
        if x0 >= x1 or y0 >= y1:
            return np.zeros(0, np.int64)
        return (np.arange(y0, y1)[:, None] * W + np.arange(x0, x1)[None, :]).ravel()

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


def to_bytes(linear):
    """Linear RGB -> sRGB bytes."""
    return (linear_to_srgb(linear) * 255 + 0.5).astype(np.uint8)


def knee_angle_at(time_s, reps, bottom):
    """The true knee angle at a time: standing, then `reps` cosine dips to `bottom`."""
    into = time_s - PAD_S
    if into < 0 or into >= reps * REP_S:
        return STANDING_KNEE_ANGLE
    depth = 0.5 - 0.5 * math.cos(2 * math.pi * into / REP_S)
    return STANDING_KNEE_ANGLE - depth * (STANDING_KNEE_ANGLE - bottom)


def truth(args, frames):
    ms = lambda s: int(round(1000 * s))
    return {
        "exercise": "squat",
        "view": args.view,
        "fps": args.fps,
        "width": args.width,
        "height": args.height,
        "frames": frames,
        "duration_ms": ms(frames / args.fps),
        "standing_knee_angle": STANDING_KNEE_ANGLE,
        "rep_count": args.reps,
        "reps": [{"index": i + 1,
                  "start_ms": ms(PAD_S + i * REP_S),
                  "bottom_ms": ms(PAD_S + (i + 0.5) * REP_S),
                  "end_ms": ms(PAD_S + (i + 1) * REP_S),
                  "bottom_knee_angle": args.bottom_angle,
                  "bottom_torso_lean": round(torso_lean(args.bottom_angle), 1)} for i in range(args.reps)],
    }


def write_atomically(path, write):
    """Calls write(temporary path) for a hidden file beside `path`, then renames it to `path`."""
    directory, name = os.path.split(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix="." + name + ".", suffix=os.path.splitext(name)[1], dir=directory)
    os.close(fd)
    try:
        write(temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def encode(args, scene, frames, path):
    """Renders the frames and pipes them to ffmpeg, which writes the MP4 at `path`."""
    # One encoder thread, so that the bytes do not depend on the number of cores.
    ffmpeg = subprocess.Popen(
        ["ffmpeg", "-nostdin", "-y", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
         "-s", f"{args.width}x{args.height}", "-r", str(args.fps), "-i", "-",
         "-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", "-f", "mp4", path], stdin=subprocess.PIPE)
    try:
        for k in range(frames):
            angle = knee_angle_at(k / args.fps, args.reps, args.bottom_angle)
            ffmpeg.stdin.write(scene.render(body(squat_pose(angle))).tobytes())
    finally:
        ffmpeg.stdin.close()
        status = ffmpeg.wait()
    if status != 0:
        raise RuntimeError(f"ffmpeg exited with status {status}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the MP4 to write")
    parser.add_argument("--truth", help="the ground truth JSON to write")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--bottom-angle", type=float, default=80.0,
                        help=f"true knee angle at the bottom, degrees (standing is {STANDING_KNEE_ANGLE:g})")
    parser.add_argument("--fps", type=int, default=15)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--view", choices=["side"], default="side", help="the camera view (side only)")
    args = parser.parse_args()
    if args.reps < 0 or not 60 <= args.bottom_angle <= STANDING_KNEE_ANGLE or args.fps <= 0:
        parser.error("--reps must be ≥ 0, --bottom-angle in [60, 175] and --fps positive")
    if args.width < 64 or args.height < 64 or args.width % 2 or args.height % 2:
        parser.error("--width and --height must be even and at least 64 (yuv420p)")
    frames = int(round((2 * PAD_S + args.reps * REP_S) * args.fps))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))  # clean up when stopped
    scene = Scene(args.width, args.height)
    write_atomically(args.out, lambda path: encode(args, scene, frames, path))
    if args.truth:
        def dump(path):
            with open(path, "w") as sink:
                json.dump(truth(args, frames), sink, indent=1)
                sink.write("\n")
        write_atomically(args.truth, dump)
    return 0


if __name__ == "__main__":
    sys.exit(main())
