import Landmarkers

/// Decides, frame by frame, whether the hand landmarker runs: on every frame,
/// or, `nearWristsOnly`, on a frame whose previous frame's pose had a wrist in
/// view. Decided from the previous frame so that the hand landmarker can run
/// beside the pose landmarker rather than after it; the first frame is searched.
struct HandSearch {
    /// A wrist counts as in view at this visibility or more, inside the picture.
    static let wristVisibility: Float = 0.5
    /// How far outside the picture (a share of its size) a wrist may be and
    /// still have its hand partly in view.
    static let margin: Float = 0.05

    let nearWristsOnly: Bool
    private(set) var isDue = true

    init(nearWristsOnly: Bool) {
        self.nearWristsOnly = nearWristsOnly
    }

    /// Takes in the poses found on a frame, for the next frame's decision.
    mutating func saw(_ poses: PoseLandmarkerResult) {
        guard nearWristsOnly else { return }
        isDue = poses.landmarks.contains { pose in
            [PoseLandmarkType.leftWrist, .rightWrist].contains { index in
                guard pose.indices.contains(index.rawValue) else { return false }
                let wrist = pose[index.rawValue]
                return (wrist.visibility ?? 0) >= Self.wristVisibility
                    && (-Self.margin...(1 + Self.margin)).contains(wrist.x) && (-Self.margin...(1 + Self.margin)).contains(wrist.y)
            }
        }
    }
}
