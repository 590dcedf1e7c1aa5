"""The mannequin of ops/render/mannequin.py: its proportions, its skeleton and
the primitives that dress it.

A skeleton is a dict of joint positions and directions (numpy 3-vectors) in the
person's frame: X is where the person faces (for a body lying face down, where
the head points), Y is up, Z is the person's right; metres; the floor is Y = 0.
Per side (`left_…`, `right_…`): hip, knee, ankle, heel, toe, instep (unit,
the way the top of the foot faces), shoulder, elbow, wrist, hand_dir (unit,
wrist to fingertips), palm (unit, the way the palm faces) and curl (how far
the fingers bend, 0 to 1); then pelvis, spine (unit, hip to shoulder), chest
(unit, the way the chest faces), neck_base, neck_top, head_center, head_up and
head_fwd; and `bar`, the middle of a barbell in the hands, if there is one.
The exercises (exercises.py) pose it; body() dresses it: a face with eyes,
nose, ears and hair, a blue shirt, dark shorts, white shoes and five fingers a
hand.
"""

import math

import numpy as np

from scene import Ellipsoid, RoundCone, head_color, solid, split

THIGH, SHANK, UPPER_ARM, FOREARM, TORSO = 0.45, 0.43, 0.30, 0.26, 0.50
SHOULDER_HALF, HIP_HALF, ANKLE_HEIGHT = 0.19, 0.13, 0.08
SHOULDER_DROP = 0.05  # shoulders below the neck's base, along the spine

STYLE = dict(skin=(0.87, 0.68, 0.55), hair=(0.18, 0.11, 0.07), shirt=(0.15, 0.35, 0.7), shorts=(0.12, 0.12, 0.14),
             shoe=(0.92, 0.92, 0.9), eye_white=(0.95, 0.95, 0.95), iris=(0.12, 0.08, 0.05), lips=(0.65, 0.32, 0.3),
             bar=(0.55, 0.56, 0.6))
SLEEVE = 0.45   # fraction of the upper arm the shirt covers
SHORTS = 0.55   # fraction of the thigh the shorts cover

SIDES = (("left", -1), ("right", 1))  # name, sign of Z
UP = np.array([0.0, 1.0, 0.0])
RIGHT = np.array([0.0, 0.0, 1.0])


# Geometry helpers.

def vec(x, y, z=0.0):
    return np.array([x, y, z], float)


def cross(a, b):
    """The cross product of two 3-vectors (np.cross is slow on one pair)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def unit(v):
    """v scaled to length 1 (a 3-vector)."""
    return v / math.sqrt(v @ v)


def tilted(angle):
    """The unit vector tilted forward (+X) from up (+Y) by angle (radians)."""
    return vec(math.sin(angle), math.cos(angle))


def rotate(v, axis, angle):
    """v rotated about the unit axis by angle (radians), right-handed (Rodrigues)."""
    axis = unit(np.asarray(axis, float))
    c, s = math.cos(angle), math.sin(angle)
    return v * c + cross(axis, v) * s + axis * (axis @ v) * (1 - c)


def angle_at(a, b, c):
    """The angle a-b-c at b, degrees."""
    u, v = unit(a - b), unit(c - b)
    return math.degrees(math.acos(float(np.clip(u @ v, -1, 1))))


def side_length(a, b, angle_deg):
    """The distance between the ends of two bones of lengths a and b meeting at angle_deg."""
    return math.sqrt(a * a + b * b - 2 * a * b * math.cos(math.radians(angle_deg)))


def two_bone(root, end, l1, l2, pole):
    """The middle joint of a limb from root to end with bones l1 and l2, bent towards `pole`."""
    axis = end - root
    d = float(np.linalg.norm(axis))
    axis = axis / d
    along = (l1 * l1 - l2 * l2 + d * d) / (2 * d)
    out = math.sqrt(max(l1 * l1 - along * along, 0.0))
    bend = unit(pole - (pole @ axis) * axis)
    return root + along * axis + out * bend


def solve(f, lo, hi, iterations=36):
    """x in [lo, hi] with f(x) = 0, by bisection (f changes sign over the interval)."""
    f_lo = f(lo)
    for _ in range(iterations):
        mid = (lo + hi) / 2
        f_mid = f(mid)
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return (lo + hi) / 2


def smoothstep(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def lerp(a, b, s):
    return a + (b - a) * s


# Building a skeleton.

def torso(J, pelvis, spine, chest, head_pitch=0.0):
    """Sets the pelvis, spine, chest, neck, head and shoulders. head_pitch
    (radians) turns the head back from the spine's line (looking up)."""
    spine, chest = unit(spine), unit(chest)
    lateral = cross(chest, spine)
    J["pelvis"], J["spine"], J["chest"] = pelvis, spine, chest
    J["neck_base"] = pelvis + TORSO * spine
    J["head_up"] = rotate(spine, lateral, head_pitch)
    J["head_fwd"] = rotate(chest, lateral, head_pitch)
    J["neck_top"] = J["neck_base"] + 0.09 * unit(spine + J["head_up"])
    J["head_center"] = J["neck_top"] + 0.10 * J["head_up"] + 0.015 * J["head_fwd"]
    for side, z in SIDES:
        J[side + "_shoulder"] = pelvis + (TORSO - SHOULDER_DROP) * spine + z * SHOULDER_HALF * lateral
    return J


def hips(J):
    """The hip joints beside the pelvis (needs torso())."""
    lateral = cross(J["chest"], J["spine"])
    for side, z in SIDES:
        J[side + "_hip"] = J["pelvis"] + z * HIP_HALF * lateral
    return J


def foot(J, side, ankle, forward, up=None):
    """Sets the ankle, heel and toe: the foot points along `forward` (heel to
    toe) with its instep towards `up` (default: perpendicular, upwards)."""
    forward = unit(forward)
    up = unit(cross(cross(forward, UP), forward) if up is None else up)
    J[side + "_ankle"] = ankle
    J[side + "_heel"] = ankle - 0.06 * forward - 0.05 * up
    J[side + "_toe"] = ankle + 0.17 * forward - 0.055 * up
    J[side + "_instep"] = up
    return J


def toe_to_ankle(toe, forward, up):
    """Where the ankle is for a foot with its toe at `toe`, pointing along the
    unit vector `forward`, its instep towards the unit vector `up` (the inverse of foot())."""
    return toe - 0.17 * forward + 0.055 * up


def hand(J, side, elbow, wrist, palm, hand_dir=None, curl=0.35):
    """Sets the elbow, wrist and hand: the palm faces `palm`; the hand points
    along the forearm unless hand_dir is given; curl bends the fingers."""
    hand_dir = unit(wrist - elbow) if hand_dir is None else unit(hand_dir)
    palm = unit(palm - (palm @ hand_dir) * hand_dir)
    J[side + "_elbow"], J[side + "_wrist"] = elbow, wrist
    J[side + "_hand_dir"], J[side + "_palm"], J[side + "_curl"] = hand_dir, palm, curl
    return J


def yawed(J, yaw):
    """The skeleton turned by yaw (radians) about the vertical axis through the origin."""
    c, s = math.cos(yaw), math.sin(yaw)
    R = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return {k: (R @ v if isinstance(v, np.ndarray) else v) for k, v in J.items()}


# Dressing it.

def axes(fwd, up):
    return np.stack([fwd, up, cross(fwd, up)])


def body(J):
    """The mannequin in pose J, as a list of primitives."""
    st = STYLE
    skin, shirt, shorts, shoe = st["skin"], st["shirt"], st["shorts"], st["shoe"]
    P = []
    for side, sign in SIDES:
        hip, knee, ankle = J[side + "_hip"], J[side + "_knee"], J[side + "_ankle"]
        heel, toe = J[side + "_heel"], J[side + "_toe"]
        P.append(RoundCone(hip, knee, 0.085, 0.055, split(shorts, skin, SHORTS)))
        P.append(RoundCone(knee, ankle, 0.052, 0.036, solid(skin)))
        calf, down = knee + 0.33 * (ankle - knee), unit(ankle - knee)
        back = unit(cross(down, cross(J["chest"], J["spine"])))
        back = back if back @ (toe - heel) < 0 else -back
        P.append(RoundCone(calf - 0.09 * down + 0.012 * back, calf + 0.1 * down + 0.008 * back, 0.05, 0.036,
                           solid(skin)))
        P.append(RoundCone(heel, toe, 0.045, 0.038, solid(shoe), spec=0.2))
        P.append(RoundCone(ankle + 0.02 * J[side + "_instep"], (heel + toe) / 2, 0.045, 0.045, solid(shoe), spec=0.2))
        shoulder, elbow, wrist = J[side + "_shoulder"], J[side + "_elbow"], J[side + "_wrist"]
        P.append(RoundCone(shoulder, elbow, 0.055, 0.042, split(shirt, skin, SLEEVE)))
        P.append(RoundCone(elbow, wrist, 0.04, 0.03, solid(skin)))
        P.extend(hand_parts(wrist, J[side + "_hand_dir"], J[side + "_palm"], J[side + "_curl"], sign, skin))
    pelvis, spine = J["pelvis"], J["spine"]
    fwd = J["chest"]
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
    if "bar" in J:
        P.extend(bar_parts(J["bar"], cross(J["chest"], J["spine"])))
    return P


def hand_parts(wrist, hand_dir, palm, curl, sign, skin):
    """A palm, four fingers and a thumb. sign: -1 for the left hand, 1 for the right."""
    width = sign * cross(hand_dir, palm)  # towards the thumb
    colour = solid(skin)
    parts = [Ellipsoid(wrist + 0.045 * hand_dir, np.stack([width, hand_dir, palm]), [0.04, 0.055, 0.02], colour)]
    finger = unit(hand_dir + curl * palm)
    tip = unit(finger + curl * (palm - 0.3 * hand_dir))
    for k, offset in enumerate((0.027, 0.009, -0.009, -0.027)):
        knuckle = wrist + 0.09 * hand_dir + offset * width
        length = (0.035, 0.04, 0.038, 0.03)[k]
        middle = knuckle + length * finger
        parts.append(RoundCone(knuckle, middle, 0.0095, 0.0085, colour))
        parts.append(RoundCone(middle, middle + 0.8 * length * tip, 0.0085, 0.0075, colour))
    base = wrist + 0.03 * hand_dir + 0.03 * width
    thumb = unit(hand_dir + 0.9 * width + 0.4 * palm)
    parts.append(RoundCone(base, base + 0.06 * thumb, 0.012, 0.0095, colour))
    return parts


def bar_parts(centre, lateral):
    """A barbell held at `centre`, along `lateral`: the grip, the sleeves and their collars."""
    grey = solid(STYLE["bar"])
    # in short pieces, whose bounding spheres cover few pixels
    pieces = [(a, a + 0.1375, 0.014) for a in np.arange(-0.55, 0.55, 0.1375)]
    for z in (-1, 1):
        pieces += [(z * 0.55, z * 0.6, 0.03), (z * 0.6, z * 0.775, 0.025), (z * 0.775, z * 0.95, 0.025)]
    return [RoundCone(centre + a * lateral, centre + b * lateral, r, r, grey, spec=0.5) for a, b, r in pieces]
