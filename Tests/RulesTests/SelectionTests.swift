@testable import Rules
import Testing

@Suite("Selection and medians")
struct SelectionTests {
    /// Random values, with many repeats in every other list (runs of equal values).
    static func lists() -> [[Double]] {
        var random = SystemRandomNumberGenerator()
        return (0..<400).map { index in
            (0..<Int.random(in: 1...80, using: &random)).map { _ in
                Double(Int.random(in: 0...(index % 2 == 0 ? 3 : 10_000), using: &random)) / 7
            }
        }
    }

    @Test("select puts at k what a sort would, nothing larger before it, nothing smaller after it")
    func select() {
        for values in Self.lists() {
            let sorted = values.sorted()
            for k in [0, values.count / 10, values.count / 2, values.count - 1] {
                var selected = values
                selected.select(k)
                #expect(selected[k] == sorted[k])
                #expect(selected[..<k].allSatisfy { $0 <= selected[k] } && selected[(k + 1)...].allSatisfy { $0 >= selected[k] })
                #expect(selected.sorted() == sorted)
            }
        }
    }

    @Test("patterned lists select right: sorted, reversed, organ pipe, all equal")
    func patterned() {
        let count = 2001
        let ascending: [Double] = (0..<count).map { Double($0) }
        let organPipe: [Double] = (0..<count).map { Double(min($0, count - 1 - $0)) }
        for values in [ascending, ascending.reversed(), organPipe, Array(repeating: 4.0, count: count)] {
            let sorted = values.sorted()
            for k in [0, 7, count / 2, count - 1] {
                var selected = values
                selected.select(k)
                #expect(selected[k] == sorted[k])
            }
        }
    }

    @Test("median, upper median and the 10th–90th percentiles agree with sorting")
    func medians() {
        for values in Self.lists() {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            #expect(median(values) == (sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2))
            #expect(upperMedian(values) == sorted[middle])
            #expect(middleRange(values, atLeast: 1) == sorted[sorted.count / 10]...sorted[sorted.count * 9 / 10])
        }
        #expect(median([]) == nil && upperMedian([Int]()) == nil && middleRange([nil, 1], atLeast: 2) == nil)
    }
}
