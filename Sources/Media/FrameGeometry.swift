/// The sizes of a frame on its way out: scaled (still as stored) and then
/// turned upright.
struct FrameGeometry: Equatable {
    /// The size swscale produces, before rotation.
    var scaledWidth: Int
    var scaledHeight: Int
    /// Clockwise degrees to turn the scaled frame: 0, 90, 180 or 270.
    var rotation: Int

    /// The size handed out, after rotation.
    var uprightWidth: Int { rotation % 180 == 0 ? scaledWidth : scaledHeight }
    var uprightHeight: Int { rotation % 180 == 0 ? scaledHeight : scaledWidth }

    /// Scales a stored `width × height` so that its longest side is at most
    /// `maxLongSide` (never up), keeping the aspect ratio.
    init(width: Int, height: Int, rotation: Int, maxLongSide: Int?) {
        self.rotation = rotation
        let longSide = max(width, height)
        guard let maxLongSide, longSide > maxLongSide else {
            (scaledWidth, scaledHeight) = (width, height)
            return
        }
        let scale = Double(maxLongSide) / Double(longSide)
        scaledWidth = max(1, Int((Double(width) * scale).rounded()))
        scaledHeight = max(1, Int((Double(height) * scale).rounded()))
    }

    /// Copies RGB pixels of the scaled size, rows `stride` bytes apart, into a
    /// packed array turned upright (by `rotation`, clockwise).
    func packUpright(_ source: UnsafePointer<UInt8>, stride: Int) -> [UInt8] {
        let (width, height) = (scaledWidth, scaledHeight)
        return [UInt8](unsafeUninitializedCapacity: width * height * 3) { target, count in
            count = width * height * 3
            guard rotation != 0 else {
                for y in 0..<height {
                    (target.baseAddress! + y * width * 3).update(from: source + y * stride, count: width * 3)
                }
                return
            }
            for y in 0..<height {
                let row = source + y * stride
                for x in 0..<width {
                    // Where (x, y) lands: clockwise 90° sends it to (height − 1 − y, x).
                    let (tx, ty, targetWidth): (Int, Int, Int)
                    switch rotation {
                    case 90: (tx, ty, targetWidth) = (height - 1 - y, x, height)
                    case 180: (tx, ty, targetWidth) = (width - 1 - x, height - 1 - y, width)
                    default: (tx, ty, targetWidth) = (y, width - 1 - x, height)
                    }
                    let to = (ty * targetWidth + tx) * 3
                    target[to] = row[x * 3]
                    target[to + 1] = row[x * 3 + 1]
                    target[to + 2] = row[x * 3 + 2]
                }
            }
        }
    }
}
