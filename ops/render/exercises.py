"""The exercises of ops/render/mannequin.py: how the mannequin moves, and its truth.

Each exercise poses the skeleton (figure.py) from its key angle, so that the
angle measured on the joints is exact: the knee (hip-knee-ankle) of a squat or
a lunge's front knee, the elbow (shoulder-elbow-wrist) of a push-up, curl or
press, the arms of a jumping jack (shoulder→hip against shoulder→wrist), the
hip (shoulder-hip-knee) of a deadlift, all on the left side (the near side in a
side view). A rep goes from the rest angle to the turn angle and back, along a
cosine; everything else (lean, arms, feet, the pelvis's height) follows the
depth s (0 at rest, 1 at the turn) so that the feet stay planted and the body
keeps its balance. The plank is a hold instead, with its own timeline.
"""

import math

import numpy as np

from figure import (ANKLE_HEIGHT, FOREARM, HIP_HALF, RIGHT, SHANK, SHOULDER_DROP, SHOULDER_HALF, SIDES, THIGH,
                    TORSO, UP, UPPER_ARM, angle_at, cross, foot, hand, hips, lerp, rotate, side_length, smoothstep,
                    solve, tilted, toe_to_ankle, torso, two_bone, unit, vec)

PAD_S = 1.0  # still before the first rep and after the last
REP_S = 2.0  # one rep, out and back
FORWARD = vec(1, 0)


def medial(z):
    """The direction towards the body's midline from the side with Z sign z."""
    return -z * RIGHT


def planted_foot(J, side, ankle, toe_out=0.12):
    """A flat foot on the floor, its toes turned out a little."""
    z = -1 if side == "left" else 1
    return foot(J, side, ankle, vec(1, 0, toe_out * z))


def straight_torso(J, pelvis, lean_deg, head_pitch_deg=0.0):
    """An upright torso leaning forward by lean_deg, the head turned back by head_pitch_deg."""
    lean = math.radians(lean_deg)
    return torso(J, pelvis, tilted(lean), vec(math.cos(lean), -math.sin(lean)), math.radians(head_pitch_deg))


def standing(knee_deg=175.0, lean_deg=2.0):
    """Standing on planted feet, hip-width apart: legs, pelvis and torso."""
    J = {}
    shank_tilt = math.radians(180 - knee_deg) / 2
    thigh_back = math.pi - math.radians(knee_deg) - shank_tilt
    for side, z in SIDES:
        ankle = vec(0, ANKLE_HEIGHT, z * HIP_HALF)
        knee = ankle + SHANK * tilted(shank_tilt)
        J[side + "_knee"], J[side + "_hip"] = knee, knee + THIGH * vec(-math.sin(thigh_back), math.cos(thigh_back))
        planted_foot(J, side, ankle)
    pelvis = (J["left_hip"] + J["right_hip"]) / 2
    return straight_torso(J, pelvis, lean_deg, 0.35 * lean_deg)


def hanging_arms(J, elbow_deg=165.0, forward_deg=4.0):
    """Relaxed arms at the sides, palms towards the thighs."""
    for side, z in SIDES:
        shoulder = J[side + "_shoulder"]
        upper = unit(rotate(-UP, RIGHT, math.radians(forward_deg)) + vec(0, 0, 0.08 * z))
        fore = rotate(upper, RIGHT, math.radians(180 - elbow_deg))
        elbow = shoulder + UPPER_ARM * upper
        hand(J, side, elbow, elbow + FOREARM * fore, medial(z))
    return J


class Exercise:
    """One exercise's motion. name: as the CLI and the rules call it; angle: the
    key angle's name; rest and turn: its value at rest and at each rep's turn
    (the default turn; --bottom-angle overrides it, within turn_range, the
    angles the pose can be built for); turn_field: the truth's
    per-rep name for the angle at the turn; rest_field: the truth's name for
    the angle at rest (default rest_ANGLE_angle); lying: filmed lying on the
    floor.
    Exercises done in reps implement pose() (Reps times them); the plank, a
    hold, has a timeline of its own (Hold)."""

    name = angle = turn_field = rest_field = ""
    rest = turn = 0.0
    turn_range = (0.0, 180.0)
    lying = False
    about = {}  # more truth about the whole clip

    def pose(self, angle, s):
        """The skeleton with the key angle at `angle`, at depth s (0 at rest, 1 at the turn)."""
        raise NotImplementedError

    def key_angle(self, J):
        """The key angle measured on the skeleton, degrees."""
        raise NotImplementedError

    def extra_truth(self, J_turn):
        """More per-rep truth, measured at the turn."""
        return {}


class Squat(Exercise):
    """Squats, feet a little wider than the hips and turned out, the knees
    tracking over the toes; the torso leans forward and the arms reach forward
    with the depth."""
    name, angle, turn_field, rest_field = "squat", "knee", "bottom_knee_angle", "standing_knee_angle"
    rest, turn, turn_range = 175.0, 85.0, (60.0, 175.0)

    STANCE_HALF = 0.17  # the ankles, a little wider than the hips
    TOE_OUT = 0.2       # the feet turned out (tan), the knees following them

    @staticmethod
    def lean(knee_deg):
        """The torso's forward lean from vertical (hip to shoulder), degrees, at a knee angle."""
        return 4 + 31 * (175.0 - knee_deg) / 95.0

    def pose(self, angle, s):
        depth = (175.0 - angle) / 95.0  # 1 at an 80° knee
        shank_tilt = math.radians(2.5) + depth * math.radians(37.5)  # knee ahead of the ankle
        thigh_back = math.pi - math.radians(angle) - shank_tilt  # hip behind the knee
        behind = SHANK * math.sin(shank_tilt) - THIGH * math.sin(thigh_back)
        reach = side_length(THIGH, SHANK, angle)
        height = math.sqrt(reach ** 2 - behind ** 2 - (self.STANCE_HALF - HIP_HALF) ** 2)
        J = {}
        for side, z in SIDES:
            ankle = vec(0, ANKLE_HEIGHT, z * self.STANCE_HALF)
            J[side + "_hip"] = vec(behind, ANKLE_HEIGHT + height, z * HIP_HALF)
            toes = vec(1, 0, self.TOE_OUT * z)
            J[side + "_knee"] = two_bone(J[side + "_hip"], ankle, THIGH, SHANK, toes)
            foot(J, side, ankle, toes)
        lean = self.lean(angle)
        straight_torso(J, (J["left_hip"] + J["right_hip"]) / 2, lean, 0.65 * lean)
        arm, elbow = math.radians(6 + 82 * depth), math.radians(12 + 8 * depth)  # arms reach forward
        for side, z in SIDES:
            shoulder = J[side + "_shoulder"]
            at = shoulder + UPPER_ARM * unit(vec(math.sin(arm), -math.cos(arm), 0.07 * z))
            fore = unit(vec(math.sin(arm + elbow), -math.cos(arm + elbow), 0.02 * z))
            hand(J, side, at, at + FOREARM * fore, medial(z))
        return J

    def key_angle(self, J):
        return angle_at(J["left_hip"], J["left_knee"], J["left_ankle"])

    def extra_truth(self, J_turn):
        return {"bottom_torso_lean": round(self.lean(self.key_angle(J_turn)), 1)}


class Pushup(Exercise):
    """Push-ups on the toes, hands under the shoulders, the body straight from
    shoulders to ankles, pivoting on the toes; the elbows flare back and out."""
    name, angle, turn_field = "pushup", "elbow", "bottom_elbow_angle"
    rest, turn, turn_range = 170.0, 80.0, (40.0, 170.0)
    lying = True
    HAND_HALF = 0.25  # the hands, a little wider than the shoulders
    WRIST_HEIGHT = 0.045

    def __init__(self):
        # The toes at the origin; then the hands under the shoulders at rest;
        # then everything moved so that the body's middle is at the origin.
        self.toe_x, self.wrist_x = 0.0, 0.0
        top = self.body_at(self.rest_body_angle())
        self.wrist_x = top["left_shoulder"][0]
        middle = (self.wrist_x + top["left_toe"][0]) / 2
        self.toe_x, self.wrist_x = -middle, self.wrist_x - middle

    def body_at(self, alpha):
        """The straight body at elevation alpha (radians, hips to shoulders), its left toe at toe_x on the floor."""
        spine, chest = vec(math.cos(alpha), math.sin(alpha)), vec(math.sin(alpha), -math.cos(alpha))
        J = hips(torso({}, vec(0, 0), spine, chest, math.radians(40)))  # looking ahead
        for side, _ in SIDES:
            knee = J[side + "_hip"] - THIGH * spine
            shank = rotate(-spine, RIGHT, -math.radians(2))  # the knees a little soft
            J[side + "_knee"] = knee
            foot(J, side, knee + SHANK * shank, chest + 0.3 * spine, spine - 0.3 * chest)
        shift = vec(self.toe_x, 0.038) - J["left_toe"] * vec(1, 1, 0)
        return {k: (v + shift if not k.endswith(("spine", "chest", "head_up", "head_fwd", "instep")) else v)
                for k, v in J.items()}

    def wrist(self, z):
        return vec(self.wrist_x, self.WRIST_HEIGHT, z * self.HAND_HALF)

    def rest_body_angle(self):
        """The elevation at which the shoulders are straight above the wrists, at the rest elbow angle."""
        reach = side_length(UPPER_ARM, FOREARM, self.rest)
        height = math.sqrt(reach ** 2 - (self.HAND_HALF - SHOULDER_HALF) ** 2)
        return solve(lambda a: self.body_at(a)["left_shoulder"][1] - self.WRIST_HEIGHT - height, 0.0, 0.8)

    def pose(self, angle, s):
        reach = side_length(UPPER_ARM, FOREARM, angle)
        J = self.body_at(solve(lambda a: np.linalg.norm(self.body_at(a)["left_shoulder"] - self.wrist(-1)) - reach,
                               -0.2, 0.8))
        for side, z in SIDES:
            wrist = self.wrist(z)
            elbow = two_bone(J[side + "_shoulder"], wrist, UPPER_ARM, FOREARM, vec(-1, 0.3, 0.8 * z))
            hand(J, side, elbow, wrist, -UP, vec(1, 0, 0.15 * z), curl=0.05)
        return J

    def key_angle(self, J):
        return angle_at(J["left_shoulder"], J["left_elbow"], J["left_wrist"])


class BicepCurl(Exercise):
    """Standing curls, both arms together, palms up; the upper arms stay by the sides."""
    name, angle, turn_field = "bicep_curl", "elbow", "top_elbow_angle"
    rest, turn, turn_range = 165.0, 40.0, (20.0, 165.0)

    def pose(self, angle, s):
        J = standing()
        for side, z in SIDES:
            upper = unit(rotate(-UP, RIGHT, math.radians(3 + 6 * s)) + vec(0, 0, 0.1 * z))
            axis = unit(cross(upper, FORWARD))
            bend = math.radians(180 - angle)
            elbow = J[side + "_shoulder"] + UPPER_ARM * upper
            hand(J, side, elbow, elbow + FOREARM * rotate(upper, axis, bend), rotate(FORWARD, axis, bend), curl=0.8)
        return J

    def key_angle(self, J):
        return angle_at(J["left_shoulder"], J["left_elbow"], J["left_wrist"])


class Lunge(Exercise):
    """Split squats, the left leg in front: the feet stay planted (the back one
    on its toes) and the pelvis goes straight down, the torso upright."""
    name, angle, turn_field = "lunge", "knee", "bottom_knee_angle"
    rest, turn, turn_range = 165.0, 90.0, (70.0, 165.0)
    about = {"variant": "split_squat", "front_leg": "left"}
    FRONT_ANKLE_X, BACK_TOE_X = 0.44, -0.60
    PELVIS_X = (-0.04, -0.02)   # at rest, at the turn
    BACK_FOOT = (-50.0, -55.0)  # the back foot's pitch, degrees (heel up)

    def pose(self, angle, s):
        px = lerp(*self.PELVIS_X, s)
        front = vec(self.FRONT_ANKLE_X, ANKLE_HEIGHT, -HIP_HALF)
        reach = side_length(THIGH, SHANK, angle)
        pelvis = vec(px, ANKLE_HEIGHT + math.sqrt(reach ** 2 - (self.FRONT_ANKLE_X - px) ** 2))
        J = {}
        straight_torso(J, pelvis, 3.0)
        hips(J)
        J["left_knee"] = two_bone(J["left_hip"], front, THIGH, SHANK, FORWARD)
        planted_foot(J, "left", front)
        pitch = math.radians(lerp(*self.BACK_FOOT, s))
        toward, instep = unit(vec(math.cos(pitch), math.sin(pitch), 0.1)), vec(-math.sin(pitch), math.cos(pitch))
        back = toe_to_ankle(vec(self.BACK_TOE_X, 0.035, HIP_HALF), toward, instep)
        J["right_knee"] = two_bone(J["right_hip"], back, THIGH, SHANK, vec(1, -0.3))
        foot(J, "right", back, toward, instep)
        return hanging_arms(J, 160.0, 6.0)

    def key_angle(self, J):
        return angle_at(J["left_hip"], J["left_knee"], J["left_ankle"])

    def extra_truth(self, J_turn):
        return {"bottom_back_knee_angle": round(angle_at(J_turn["right_hip"], J_turn["right_knee"],
                                                         J_turn["right_ankle"]), 1)}


class OverheadPress(Exercise):
    """Standing presses from the shoulders to overhead: the forearms stay
    vertical while the upper arms rise, a little forward of the shoulders' line."""
    name, angle, turn_field = "overhead_press", "elbow", "lockout_elbow_angle"
    rest, turn, turn_range = 75.0, 170.0, (75.0, 179.0)
    PLANE = math.radians(30)  # the arms' plane, turned forward from the shoulders' line

    def pose(self, angle, s):
        J = standing()
        e = math.radians(angle)  # with a vertical forearm, the elbow angle is the upper arm's elevation
        for side, z in SIDES:
            out = math.cos(self.PLANE) * z * RIGHT + math.sin(self.PLANE) * FORWARD
            elbow = J[side + "_shoulder"] + UPPER_ARM * (math.sin(e) * out - math.cos(e) * UP)
            hand(J, side, elbow, elbow + FOREARM * UP, FORWARD, curl=0.7)
        return J

    def key_angle(self, J):
        return angle_at(J["left_shoulder"], J["left_elbow"], J["left_wrist"])


class JumpingJack(Exercise):
    """Jumping jacks: the nearly straight arms sweep up sideways to overhead;
    the feet jump out early in the rep (the body leaves the floor) and back in
    late, landing on soft knees."""
    name, angle, turn_field = "jumping_jack", "arm", "top_arm_angle"
    rest, turn, turn_range = 15.0, 165.0, (15.0, 179.0)
    WIDE = 0.33    # half the stance, feet apart
    JUMP = 0.06    # the highest the feet leave the floor
    LEGS = 0.35    # the part of the way to the turn in which the feet move
    ELBOW = 170.0

    def pose(self, angle, s):
        legs = min(s / self.LEGS, 1.0)
        lift = self.JUMP * math.sin(math.pi * legs)
        half = lerp(HIP_HALF, self.WIDE, smoothstep(legs))
        knee_deg = 172 - 10 * math.sin(math.pi * legs) ** 2
        reach = side_length(THIGH, SHANK, knee_deg)
        J = {}
        straight_torso(J, vec(0, ANKLE_HEIGHT + lift + math.sqrt(reach ** 2 - (half - HIP_HALF) ** 2)), 0.0)
        hips(J)
        for side, z in SIDES:
            ankle = vec(0, ANKLE_HEIGHT + lift, z * half)
            J[side + "_knee"] = two_bone(J[side + "_hip"], ankle, THIGH, SHANK, vec(1, 0, 0.3 * z))
            foot(J, side, ankle, vec(1, 0, 0.3 * z))
            shoulder = J[side + "_shoulder"]
            down = unit(J[side + "_hip"] - shoulder)
            wrist = shoulder + side_length(UPPER_ARM, FOREARM, self.ELBOW) * rotate(down, FORWARD,
                                                                                     -z * math.radians(angle))
            elbow = two_bone(shoulder, wrist, UPPER_ARM, FOREARM, vec(-1, 0, 0))
            hand(J, side, elbow, wrist, FORWARD, curl=0.3)
        return J

    def key_angle(self, J):
        return float(np.mean([angle_at(J[side + "_hip"], J[side + "_shoulder"], J[side + "_wrist"])
                              for side, _ in SIDES]))


class Deadlift(Exercise):
    """Deadlifts with a barbell, from the floor to lockout: the shins stay near
    vertical, the knees straighten with the hips, the arms hang straight and the
    bar travels close to the legs."""
    name, angle, turn_field = "deadlift", "hip", "lockout_hip_angle"
    rest, turn, turn_range = 70.0, 170.0, (70.0, 172.0)  # the shoulders are wider than the hips
    GRIP_HALF = 0.24

    def pose(self, angle, s):
        knee_deg = lerp(115.0, 175.0, s)
        shank_tilt = math.radians(lerp(12.0, 2.0, s))
        thigh_back = math.pi - math.radians(knee_deg) - shank_tilt
        legs = {}
        for side, z in SIDES:
            ankle = vec(0, ANKLE_HEIGHT, z * HIP_HALF)
            knee = ankle + SHANK * tilted(shank_tilt)
            legs[side + "_knee"] = knee
            legs[side + "_hip"] = knee + THIGH * vec(-math.sin(thigh_back), math.cos(thigh_back))
            planted_foot(legs, side, ankle)
        pelvis = (legs["left_hip"] + legs["right_hip"]) / 2

        def lifted(lean):
            return straight_torso(dict(legs), pelvis, lean, 0.6 * lean)
        straight = math.degrees(shank_tilt) + knee_deg - 180  # the lean that lines the torso up with the thigh
        lean = solve(lambda lean: self.key_angle(lifted(lean)) - angle, straight, 110.0)
        J = lifted(lean)
        # The bar hangs below the shoulders, just in front of the shins.
        reach = side_length(UPPER_ARM, FOREARM, 175.0)
        shoulder_x, shoulder_y = J["left_shoulder"][0], J["left_shoulder"][1]
        bar_y = shoulder_y - reach - 0.08
        shin_x = (bar_y - ANKLE_HEIGHT) * math.tan(shank_tilt) + 0.075
        bar_x = max(shoulder_x, shin_x)
        for side, z in SIDES:
            grip = vec(bar_x, bar_y, z * self.GRIP_HALF)
            down = unit(grip - J[side + "_shoulder"])
            wrist = J[side + "_shoulder"] + reach * down
            elbow = two_bone(J[side + "_shoulder"], wrist, UPPER_ARM, FOREARM, vec(-1, 0, 0.2 * z))
            hand(J, side, elbow, wrist, -FORWARD, down, curl=0.8)
        J["bar"] = vec(bar_x, bar_y + 0.005, 0)
        return J

    def key_angle(self, J):
        return angle_at(J["left_shoulder"], J["left_hip"], J["left_knee"])


class Plank(Exercise):
    """A forearm plank: from kneeling upright the body folds down onto the
    forearms (knees down), the legs straighten back onto the toes, the plank is
    held, and the same way back to kneeling. The hold's truth is the body's
    line, shoulders to ankles, from horizontal."""
    name, angle = "plank", "body"
    lying = True
    PHASES = (1.5, 1.5)  # kneeling to forearms, then to the plank (and back)
    KNEE_Y, SHOULDER_Y = 0.055, 0.05 + UPPER_ARM  # the knee on the floor; the elbow under the shoulder
    KNEELING_FOOT = 20.0   # the foot's angle from the shin, degrees, instep on the floor
    PLANK_FOOT = 99.0      # toes tucked under
    HIP, KNEE = (70.0, 178.0), (90.0, 176.0)  # on the forearms and knees, in the plank

    def __init__(self):
        self.fold_lean = math.degrees(math.asin((self.KNEE_Y + THIGH - self.SHOULDER_Y) / (TORSO - SHOULDER_DROP)))
        self.knee_x = 0.07  # the plank's middle (toes to fingers) at the origin
        self.shoulder_x = self.knee_x + (TORSO - SHOULDER_DROP) * math.cos(math.radians(self.fold_lean))

    @staticmethod
    def direction(degrees):
        a = math.radians(degrees)
        return vec(math.cos(a), math.sin(a))

    def legs(self, J, hip_deg, knee_deg, foot_deg, torso_deg):
        """Legs from the hips, by the hip and knee angles (180 straight) and the foot's angle from the shin."""
        thigh = torso_deg + 180 + (180 - hip_deg)
        shank = thigh - (180 - knee_deg)
        for side, _ in SIDES:
            knee = J[side + "_hip"] + THIGH * self.direction(thigh)
            J[side + "_knee"] = knee
            forward = self.direction(shank + foot_deg)
            foot(J, side, knee + SHANK * self.direction(shank), forward, self.direction(shank + foot_deg + 90))
        return J

    def arms(self, J, forearm_deg, palm_down):
        """Upper arms straight down; the forearms turned forward from down by forearm_deg."""
        for side, z in SIDES:
            elbow = J[side + "_shoulder"] - UPPER_ARM * UP
            fore = self.direction(-90 + forearm_deg)
            palm = unit(lerp(medial(z), -UP, palm_down))
            hand(J, side, elbow, elbow + FOREARM * fore, palm, curl=lerp(0.3, 0.05, palm_down))
        return J

    def body(self, torso_deg, pelvis, head_deg):
        """The torso, hips and shoulders with the hips→shoulders line at torso_deg from forward."""
        spine, chest = self.direction(torso_deg), self.direction(torso_deg - 90)
        return hips(torso({}, pelvis, spine, chest, math.radians(head_deg)))

    def folding(self, q):
        """From kneeling upright (q = 0) down onto the forearms and knees (q = 1)."""
        lean = lerp(90.0, -self.fold_lean, q)
        knee = vec(self.knee_x, self.KNEE_Y)
        J = self.body(lean, knee + THIGH * UP, lerp(0.0, 40.0, q))
        self.legs(J, lean + 90, 90.0, self.KNEELING_FOOT, lean)  # the thighs stay upright
        return self.arms(J, 90 * smoothstep((q - 0.4) / 0.6), q)

    def stretching(self, r):
        """From the forearms and knees (r = 0) back onto the toes, into the plank (r = 1)."""
        hip, knee, foot_deg = lerp(*self.HIP, r), lerp(*self.KNEE, r), lerp(self.KNEELING_FOOT, self.PLANK_FOOT, r)
        shoulder = vec(self.shoulder_x, self.SHOULDER_Y)

        def at(torso_deg):
            spine = self.direction(torso_deg)
            J = self.body(torso_deg, shoulder - (TORSO - SHOULDER_DROP) * spine, lerp(40.0, 45.0, r))
            return self.legs(J, hip, knee, foot_deg, torso_deg)

        def clearance(torso_deg):
            J = at(torso_deg)
            return min(J["left_knee"][1] - self.KNEE_Y, J["left_toe"][1] - 0.038, J["left_heel"][1] - 0.045)
        return self.arms(at(solve(clearance, -self.fold_lean - 10, 40.0)), 90.0, 1.0)

    def pose_at(self, t, hold_s):
        """The pose at t seconds; the hold lasts hold_s."""
        fold, stretch = self.PHASES
        into = t - PAD_S
        if into < fold:
            return self.folding(smoothstep(into / fold))
        into -= fold
        if into < stretch:
            return self.stretching(smoothstep(into / stretch))
        into -= stretch + hold_s
        if into < 0:
            return self.stretching(1.0)
        if into < stretch:
            return self.stretching(smoothstep(1 - into / stretch))
        return self.folding(smoothstep(1 - (into - stretch) / fold))

    def duration(self, hold_s):
        return 2 * PAD_S + 2 * sum(self.PHASES) + hold_s

    def hold_span(self, hold_s):
        """When the plank is held: from and to, seconds."""
        start = PAD_S + sum(self.PHASES)
        return start, start + hold_s

    def key_angle(self, J):
        """The body's line, shoulder to ankle, from horizontal."""
        d = J["left_shoulder"] - J["left_ankle"]
        return math.degrees(math.atan2(abs(d[1]), math.hypot(d[0], d[2])))


EXERCISES = {e.name: e for e in (Squat, Pushup, BicepCurl, Lunge, OverheadPress, JumpingJack, Deadlift, Plank)}


class Reps:
    """A set of reps of an exercise: standing still PAD_S, `count` reps of
    REP_S from the rest angle to `turn` and back along a cosine, still again."""

    def __init__(self, exercise, count, turn):
        self.exercise, self.count, self.turn = exercise, count, turn

    def duration(self):
        return 2 * PAD_S + self.count * REP_S

    def depth_at(self, t):
        """0 at rest, 1 at a turn."""
        into = t - PAD_S
        if into < 0 or into >= self.count * REP_S:
            return 0.0
        return 0.5 - 0.5 * math.cos(2 * math.pi * into / REP_S)

    def pose_at(self, t):
        s = self.depth_at(t)
        return self.exercise.pose(lerp(self.exercise.rest, self.turn, s), s)

    def truth(self):
        e, ms = self.exercise, milliseconds
        turn = e.pose(self.turn, 1.0)
        fields = dict(e.about)
        fields[e.rest_field or f"rest_{e.angle}_angle"] = round(e.key_angle(e.pose(e.rest, 0.0)), 1)
        fields.update({"rep_count": self.count, "reps": []})
        for i in range(self.count):
            rep = {"index": i + 1, "start_ms": ms(PAD_S + i * REP_S), "bottom_ms": ms(PAD_S + (i + 0.5) * REP_S),
                   "end_ms": ms(PAD_S + (i + 1) * REP_S), e.turn_field: round(e.key_angle(turn), 1)}
            rep.update(e.extra_truth(turn))
            fields["reps"].append(rep)
        return fields


class Hold:
    """A plank held for hold_s."""

    def __init__(self, exercise, hold_s):
        self.exercise, self.hold_s = exercise, hold_s

    def duration(self):
        return self.exercise.duration(self.hold_s)

    def pose_at(self, t):
        return self.exercise.pose_at(t, self.hold_s)

    def truth(self):
        start, end = self.exercise.hold_span(self.hold_s)
        held = self.exercise.stretching(1.0)
        return {"rep_count": 0, "reps": [], "hold_start_ms": milliseconds(start), "hold_end_ms": milliseconds(end),
                "hold_ms": milliseconds(end) - milliseconds(start),
                "hold_body_angle": round(self.exercise.key_angle(held), 1),
                "hold_hip_angle": round(angle_at(held["left_shoulder"], held["left_hip"], held["left_knee"]), 1)}


def milliseconds(seconds):
    return int(round(1000 * seconds))
