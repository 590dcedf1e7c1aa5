import LandmarkTracks

/// Now and then a video frame is searched for everyone in it, beside the one
/// person the video-mode landmarker follows, so that the report can say that
/// several people were in view and which one was scored. Pure.
enum CrowdCheck {
    /// The most people one check finds.
    static let mostPeople = 4

    /// The people in `everyone` who are not one of `tracked`. Two people's
    /// heads are never in one place: a pose whose head (nose, eyes, ears,
    /// mouth) lies on average within a quarter of a tracked pose's size of
    /// that pose's is the same person, found twice (often with other limbs: a
    /// second reading of one body). While nobody is followed, nobody is added:
    /// the frames with a person stay those the video-mode landmarker found one in.
    static func others(_ everyone: [TrackPose], besides tracked: [TrackPose]) -> [TrackPose] {
        guard !tracked.isEmpty else { return [] }
        return everyone.filter { candidate in
            !tracked.contains { isSamePerson(candidate, $0) }
        }
    }

    /// MediaPipe's face landmarks: nose 0, eyes 1–6, ears 7–8, mouth 9–10.
    private static let head = 0...10

    private static func isSamePerson(_ candidate: TrackPose, _ tracked: TrackPose) -> Bool {
        guard candidate.landmarks.count == tracked.landmarks.count, tracked.landmarks.count > head.upperBound else { return false }
        let distances = head.map { index in
            let a = candidate.landmarks[index], b = tracked.landmarks[index]
            return Double(((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
        }
        return distances.reduce(0, +) / Double(distances.count) < 0.25 * size(tracked)
    }

    /// The mean of the sides of the landmarks' bounding box, in normalized units.
    private static func size(_ pose: TrackPose) -> Double {
        let xs = pose.landmarks.map(\.x), ys = pose.landmarks.map(\.y)
        return Double((xs.max()! - xs.min()!) + (ys.max()! - ys.min()!)) / 2
    }
}
