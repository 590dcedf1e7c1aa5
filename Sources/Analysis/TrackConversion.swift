import LandmarkTracks
import Landmarkers

extension TrackLandmark {
    init(_ landmark: NormalizedLandmark) {
        self.init(x: landmark.x, y: landmark.y, z: landmark.z, visibility: landmark.visibility, presence: landmark.presence)
    }

    init(_ landmark: Landmark) {
        self.init(x: landmark.x, y: landmark.y, z: landmark.z, visibility: landmark.visibility, presence: landmark.presence)
    }
}

extension LandmarkTrackFrame {
    /// The track frame of one image or video frame's landmarker results.
    init(timestampMilliseconds: Int, poses: PoseLandmarkerResult, hands: HandLandmarkerResult?) {
        self.init(
            timestampMilliseconds: timestampMilliseconds,
            poses: poses.poses.map { pose in
                TrackPose(landmarks: pose.landmarks.map(TrackLandmark.init), world: pose.worldLandmarks.map(TrackLandmark.init))
            },
            hands: hands?.hands.map { hand in
                TrackHand(
                    handedness: hand.handedness?.categoryName ?? "",
                    score: hand.handedness?.score ?? 0,
                    landmarks: hand.landmarks.map(TrackLandmark.init),
                    world: hand.worldLandmarks.map(TrackLandmark.init))
            })
    }
}
