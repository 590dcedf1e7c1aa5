import LandmarkTracks
import Media

/// A frame's RGB pixels with a pose's skeleton drawn on them: the limbs and
/// torso as lines between visible landmarks, the joints as dots.
struct SkeletonCanvas {
    /// The bones drawn, as pairs of MediaPipe pose landmark indices.
    static let bones: [(Int, Int)] = [
        (11, 12), (11, 23), (12, 24), (23, 24),  // torso
        (11, 13), (13, 15), (15, 19), (12, 14), (14, 16), (16, 20),  // arms to the index fingers
        (23, 25), (25, 27), (27, 31), (24, 26), (26, 28), (28, 32),  // legs to the toes
    ]
    static let boneColor: (UInt8, UInt8, UInt8) = (0x3d, 0xdc, 0x84)
    static let jointColor: (UInt8, UInt8, UInt8) = (0xff, 0xff, 0xff)
    /// Landmarks less visible than this are not drawn.
    static let minimumVisibility: Float = 0.5

    private(set) var pixels: [UInt8]
    let width: Int
    let height: Int

    init(frame: VideoFrame) {
        (pixels, width, height) = (frame.pixels, frame.width, frame.height)
    }

    mutating func draw(_ pose: TrackPose) {
        func point(_ index: Int) -> (Double, Double)? {
            guard index < pose.landmarks.count else { return nil }
            let landmark = pose.landmarks[index]
            guard (landmark.visibility ?? 1) >= Self.minimumVisibility, (-1...2).contains(landmark.x), (-1...2).contains(landmark.y)
            else { return nil }
            return (Double(landmark.x) * Double(width), Double(landmark.y) * Double(height))
        }
        for (from, to) in Self.bones {
            guard let start = point(from), let end = point(to) else { continue }
            line(from: start, to: end, radius: 1, color: Self.boneColor)
        }
        for index in Set(Self.bones.flatMap { [$0.0, $0.1] }) {
            guard let joint = point(index) else { continue }
            line(from: joint, to: joint, radius: 2, color: Self.jointColor)
        }
    }

    /// A line `2 × radius + 1` pixels thick; pixels outside the picture are skipped.
    private mutating func line(from start: (Double, Double), to end: (Double, Double), radius: Int, color: (UInt8, UInt8, UInt8)) {
        let steps = max(1, Int(max(abs(end.0 - start.0), abs(end.1 - start.1)).rounded(.up)))
        for step in 0...steps {
            let share = Double(step) / Double(steps)
            let x = Int((start.0 + (end.0 - start.0) * share).rounded()), y = Int((start.1 + (end.1 - start.1) * share).rounded())
            for dy in -radius...radius {
                for dx in -radius...radius {
                    let (px, py) = (x + dx, y + dy)
                    guard px >= 0, py >= 0, px < width, py < height else { continue }
                    let offset = (py * width + px) * 3
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = color
                }
            }
        }
    }
}
