import Landmarkers

extension PoseLandmarkerOptions {
    /// Options for the installed pose bundle, in `mode`.
    public static func installed(_ mode: RunningMode = .image) -> PoseLandmarkerOptions {
        var options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = TestAssets.installation.poseModelPath
        options.runningMode = mode
        return options
    }
}

extension HandLandmarkerOptions {
    /// Options for the installed hand bundle of `model` size, in `mode`.
    public static func installed(_ mode: RunningMode = .image, model: HandModel = .full) -> HandLandmarkerOptions {
        var options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = TestAssets.installation.handModelPath(model)
        options.runningMode = mode
        return options
    }
}
