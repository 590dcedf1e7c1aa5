internal import CMediaPipe

/// A landmark in image coordinates: `x` and `y` normalized to [0, 1] by the
/// image width and height, `z` a depth on roughly the scale of `x`.
public struct NormalizedLandmark: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var z: Float
    /// Likelihood that the landmark is visible (not occluded), if the model gives it.
    public var visibility: Float?
    /// Likelihood that the landmark is present in the image, if the model gives it.
    public var presence: Float?

    /// The engine's landmark, its optional likelihoods nil where the model gives none.
    init(_ c: MpNormalizedLandmark) {
        (x, y, z) = (c.x, c.y, c.z)
        visibility = c.has_visibility ? c.visibility : nil
        presence = c.has_presence ? c.presence : nil
    }
}

/// A landmark in world coordinates, in metres: origin at the hips' centre for a
/// pose and at the hand's geometric centre for a hand, y pointing down.
public struct Landmark: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public var z: Float
    /// Likelihood that the landmark is visible (not occluded), if the model gives it.
    public var visibility: Float?
    /// Likelihood that the landmark is present in the image, if the model gives it.
    public var presence: Float?

    /// The engine's landmark, its optional likelihoods nil where the model gives none.
    init(_ c: MpLandmark) {
        (x, y, z) = (c.x, c.y, c.z)
        visibility = c.has_visibility ? c.visibility : nil
        presence = c.has_presence ? c.presence : nil
    }
}

/// A classification, such as a hand's handedness.
public struct ResultCategory: Sendable, Hashable {
    public var index: Int
    public var score: Float
    public var categoryName: String?
    public var displayName: String?

    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }

    init(_ c: MpCategory) {
        self.init(
            index: Int(c.index), score: c.score,
            categoryName: c.category_name.map { String(cString: $0) },
            displayName: c.display_name.map { String(cString: $0) })
    }
}

/// A per-pixel confidence mask, row-major, of the input image's size.
public struct Mask: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// `width × height` values in [0, 1].
    public var values: [Float]

    public init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height, "a mask needs width × height values")
        self.width = width
        self.height = height
        self.values = values
    }

    /// The value at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}

extension Array {
    /// Converts `count` C elements at `start`; empty for a null pointer.
    init<C>(converting start: UnsafePointer<C>?, count: UInt32, _ convert: (C) throws -> Element) rethrows {
        guard let start else {
            self = []
            return
        }
        self = try UnsafeBufferPointer(start: start, count: Int(count)).map(convert)
    }
}

extension Mask {
    /// Copies a VEC32F1 MediaPipe image.
    init(copying image: OpaquePointer, engine: MediaPipeEngine) throws(LandmarkerError) {
        let api = engine.api.pointee
        let width = Int(api.MpImageGetWidth(image))
        let height = Int(api.MpImageGetHeight(image))
        var data: UnsafePointer<Float>?
        try engine.check(.detectionFailed, "MediaPipe cannot expose a segmentation mask") { error in
            api.MpImageDataFloat32(image, &data, error)
        }
        guard let data, api.MpImageGetFormat(image) == kMpImageFormatVec32F1 else {
            throw LandmarkerError(.detectionFailed, "MediaPipe returned a segmentation mask that is not one float per pixel")
        }
        // The engine hands out the values packed without row padding.
        self.init(width: width, height: height, values: Array(UnsafeBufferPointer(start: data, count: width * height)))
    }
}
