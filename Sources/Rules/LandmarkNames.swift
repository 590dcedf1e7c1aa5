/// MediaPipe's 33 pose landmarks by name, in the order of the track's rows.
enum PoseLandmarkName {
    static let all = [
        "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye", "right_eye_outer",
        "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder", "right_shoulder", "left_elbow",
        "right_elbow", "left_wrist", "right_wrist", "left_pinky", "right_pinky", "left_index", "right_index",
        "left_thumb", "right_thumb", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle",
        "left_heel", "right_heel", "left_foot_index", "right_foot_index",
    ]

    static let index = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1, $0) })

    /// Names that come in a left and a right version, without the side: `knee`.
    static let sided: Set<String> = Set(all.compactMap { name in
        name.hasPrefix("left_") ? String(name.dropFirst(5)) : nil
    })

    /// The human name of a landmark in messages: "left ankle".
    static func spoken(_ index: Int) -> String { all[index].replacingOccurrences(of: "_", with: " ") }
}

/// The pose landmarks the engine itself reads, by name (rows of `PoseLandmarkName.all`).
enum PoseLandmark {
    static let nose = 0
    static let leftShoulder = 11, rightShoulder = 12
    static let leftElbow = 13, rightElbow = 14
    static let leftWrist = 15, rightWrist = 16
    static let leftHip = 23, rightHip = 24
    static let leftKnee = 25, rightKnee = 26
    static let leftAnkle = 27, rightAnkle = 28

    /// The elbow and wrist on one side.
    static func forearm(_ side: BodySide) -> (elbow: Int, wrist: Int) {
        side == .left ? (leftElbow, leftWrist) : (rightElbow, rightWrist)
    }
}

/// The hand landmarks the engine reads (rows of MediaPipe's 21).
enum HandLandmark {
    static let wrist = 0
    /// The middle finger's knuckle: wrist → knuckle is the hand's direction.
    static let middleKnuckle = 9
}

/// Which body side a landmark reference means.
enum BodySide: String, Sendable, CaseIterable {
    case left, right

    var other: BodySide { self == .left ? .right : .left }
}

/// A point on the body a signal is computed from.
enum LandmarkReference: Sendable, Equatable {
    /// One landmark, named with its side: `left_knee`, or `nose`.
    case fixed(Int)
    /// A sided landmark named without its side (`knee`), resolved per signal side.
    case sided(left: Int, right: Int)
    /// The point halfway between a left and a right landmark: `mid_hip`.
    case midpoint(left: Int, right: Int)

    init(_ name: String, at value: YAMLValue) throws {
        if let index = PoseLandmarkName.index[name] {
            self = .fixed(index)
        } else if PoseLandmarkName.sided.contains(name) {
            self = .sided(left: PoseLandmarkName.index["left_" + name]!, right: PoseLandmarkName.index["right_" + name]!)
        } else if name.hasPrefix("mid_"), PoseLandmarkName.sided.contains(String(name.dropFirst(4))) {
            let base = String(name.dropFirst(4))
            self = .midpoint(left: PoseLandmarkName.index["left_" + base]!, right: PoseLandmarkName.index["right_" + base]!)
        } else {
            throw value.error("unknown landmark \"\(name)\" (MediaPipe's names, such as left_knee, knee for either side, or mid_hip)")
        }
    }

    /// The landmark indices this reference reads on `side`.
    func indices(on side: BodySide) -> [Int] {
        switch self {
        case .fixed(let index): [index]
        case .sided(let left, let right): [side == .left ? left : right]
        case .midpoint(let left, let right): [left, right]
        }
    }

    /// Whether the reference depends on the side.
    var isSided: Bool {
        if case .sided = self { return true }
        return false
    }
}
