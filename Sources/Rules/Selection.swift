extension MutableCollection where Self: RandomAccessCollection, Element: Comparable {
    /// Puts at `k` the element a sort would put there, none larger before it
    /// and none smaller after it, within `range` (the whole collection by
    /// default). Quickselect with three-way partitions, so that runs of equal
    /// values stay linear; after a few unlucky rounds the rest is sorted, so
    /// that no input makes it quadratic. Linear on average, where a median
    /// by sorting is O(n log n): medians are taken over whole sets.
    mutating func select(_ k: Index, within range: Range<Index>? = nil) {
        var low = range?.lowerBound ?? startIndex
        var high = index(before: range?.upperBound ?? endIndex)
        var rounds = 0
        while low < high {
            rounds += 1
            if rounds > 40 {
                self[low...high].sort()
                return
            }
            let middle = index(low, offsetBy: distance(from: low, to: high) / 2)
            let pivot = medianOfThree(self[low], self[middle], self[high])
            // [low, less) < pivot, [less, next) == pivot, (greater, high] > pivot.
            var less = low, next = low, greater = high
            while next <= greater {
                if self[next] < pivot {
                    swapAt(less, next)
                    formIndex(after: &less)
                    formIndex(after: &next)
                } else if pivot < self[next] {
                    swapAt(next, greater)
                    formIndex(before: &greater)
                } else {
                    formIndex(after: &next)
                }
            }
            if k < less {
                high = index(before: less)
            } else if k > greater {
                low = index(after: greater)
            } else {
                return
            }
        }
    }
}

/// The middle one of three values.
func medianOfThree<Value: Comparable>(_ a: Value, _ b: Value, _ c: Value) -> Value {
    max(min(a, b), min(max(a, b), c))
}
