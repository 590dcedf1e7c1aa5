/// Interleaved 8-bit pixels and the transforms the parity expectations apply
/// with numpy, reproduced exactly.
public struct Pixels: Equatable, Sendable {
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int
    public var channels: Int

    public init(bytes: [UInt8], width: Int, height: Int, channels: Int) {
        precondition(bytes.count == width * height * channels)
        self.bytes = bytes
        self.width = width
        self.height = height
        self.channels = channels
    }

    private func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> {
        let start = (y * width + x) * channels
        return bytes[start..<(start + channels)]
    }

    /// `numpy.rot90(pixels, quarterTurns)`: counter-clockwise quarter turns.
    public func rotatedCounterClockwise(_ quarterTurns: Int) -> Pixels {
        var result = self
        for _ in 0..<((quarterTurns % 4 + 4) % 4) {
            let source = result
            var bytes = [UInt8]()
            bytes.reserveCapacity(source.bytes.count)
            // Row i of the result is column (width − 1 − i) of the source, top to bottom.
            for row in 0..<source.width {
                for column in 0..<source.height {
                    bytes.append(contentsOf: source.pixel(source.width - 1 - row, column))
                }
            }
            result = Pixels(bytes: bytes, width: source.height, height: source.width, channels: channels)
        }
        return result
    }

    /// `numpy.roll(pixels, shift, axis=1)`: columns move right by `shift`, wrapping.
    public func rolledHorizontally(_ shift: Int) -> Pixels {
        var bytes = [UInt8]()
        bytes.reserveCapacity(self.bytes.count)
        for y in 0..<height {
            for x in 0..<width {
                bytes.append(contentsOf: pixel(((x - shift) % width + width) % width, y))
            }
        }
        return Pixels(bytes: bytes, width: width, height: height, channels: channels)
    }
}
