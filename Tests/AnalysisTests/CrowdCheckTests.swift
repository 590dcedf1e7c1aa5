@testable import Analysis
import LandmarkTracks
import Testing

/// Which of the people an image-mode check finds are someone else.
@Suite("Looking for other people")
struct CrowdCheckTests {
    /// A standing figure: head at the top, feet at the bottom, centred on `x`.
    static func person(at x: Float, legsAt legs: Float = 0) -> TrackPose {
        let rows = (0..<33).map { index in
            let y = Float(index) / 40 + 0.1
            let shift = index >= 23 ? legs : 0
            return TrackLandmark(x: x + shift + Float(index % 2) * 0.02, y: y, z: 0, visibility: 0.9, presence: 0.9)
        }
        return TrackPose(landmarks: rows, world: rows)
    }

    @Test("someone standing apart is another person")
    func apart() {
        let followed = Self.person(at: 0.3), other = Self.person(at: 0.7)
        #expect(CrowdCheck.others([followed, other], besides: [followed]) == [other])
    }

    @Test("the followed person read a second time, with other legs, is not another person")
    func foundTwice() {
        let followed = Self.person(at: 0.3)
        #expect(CrowdCheck.others([Self.person(at: 0.3, legsAt: 0.25)], besides: [followed]).isEmpty)
    }

    @Test("while nobody is followed, nobody is added")
    func nobodyFollowed() {
        #expect(CrowdCheck.others([Self.person(at: 0.3)], besides: []).isEmpty)
    }
}
