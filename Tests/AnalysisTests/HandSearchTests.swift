import Analysis
import LandmarkTracks
import Testing
import TestSupport

/// With `handsNearWrists`, the hand landmarker runs only on frames that follow
/// one whose pose has a wrist in view; elsewhere its results are those of a
/// search on every frame.
@Suite("Hands looked for only near a pose's wrists")
struct HandSearchTests {
    @Test("a second with nobody in view is not searched for hands; the frames with the person are, as before")
    func personAway() async throws {
        let path = try Clips.path("person-away.mp4")
        var options = LandmarkOptions()
        options.hands = true
        let everywhere = try await VideoLandmarksTests.track(path, options: options)
        options.handsNearWrists = true
        let nearWrists = try await VideoLandmarksTests.track(path, options: options)
        let times = nearWrists.frames.map(\.timestampMilliseconds)
        #expect(times == (0..<30).map { $0 * 100 } && everywhere.frames.map(\.timestampMilliseconds) == times)
        #expect(everywhere.summary.framesSearchedForHands == 30 && nearWrists.summary.hands > 0)
        // The person: every frame has a pose with a wrist in view. The black second: none.
        #expect(nearWrists.frames.map { !$0.poses.isEmpty } == times.map { !(1000..<2000).contains($0) })
        // Searched: the first second, the black second's first frame (its previous frame had
        // wrists), and the last second but its first frame (its previous frame was black).
        let searched = nearWrists.frames.map { $0.hands != nil }
        #expect(searched == times.map { $0 < 1100 || $0 > 2000 })
        #expect(nearWrists.summary.framesSearchedForHands == 20)
        // Where both searched with the same history, the same hands.
        for (gated, full) in zip(nearWrists.frames, everywhere.frames) where gated.timestampMilliseconds < 1100 {
            #expect(gated.hands == full.hands, "at \(gated.timestampMilliseconds) ms")
        }
    }
}
