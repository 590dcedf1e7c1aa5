/// A window of frames within some milliseconds either way of each frame in turn,
/// slid along a series: every frame enters it once and leaves it once, so that a
/// running tally (counts, a sorted window) follows it without rereading the window.
enum TimeWindow {
    /// For each frame in order: calls `enter` for the frames coming within `halfWidthMs`
    /// after it, then `leave` for those now more than `halfWidthMs` before it, then `value`.
    static func slide<Value>(
        times: [Int], halfWidthMs: Int, enter: (Int) -> Void, leave: (Int) -> Void, value: (Int) -> Value
    ) -> [Value] {
        var low = 0, high = -1
        return times.indices.map { frame in
            while high + 1 < times.count, times[high + 1] - times[frame] <= halfWidthMs {
                high += 1
                enter(high)
            }
            while times[frame] - times[low] > halfWidthMs {
                leave(low)
                low += 1
            }
            return value(frame)
        }
    }
}
