/// The median of a window of values that slides along a series: values enter
/// and leave one at a time, kept sorted, so that each median costs a binary
/// search and a short move instead of a sort of the whole window.
struct SlidingMedian {
    private var sorted: [Double] = []

    /// Adds a value to the window.
    mutating func insert(_ value: Double) {
        sorted.insert(value, at: index(of: value))
    }

    /// Takes out one occurrence of a value that was added.
    mutating func remove(_ value: Double) {
        let at = index(of: value)
        if at < sorted.count, sorted[at] == value { sorted.remove(at: at) }
    }

    /// The median of the values in the window (the mean of the two middle ones of an even count), nil when empty.
    var median: Double? {
        guard !sorted.isEmpty else { return nil }
        let upper = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[upper] : (sorted[upper - 1] + sorted[upper]) / 2
    }

    /// The first position whose value is not below `value`.
    private func index(of value: Double) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
