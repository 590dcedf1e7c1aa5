import Foundation

/// Checks that a JPEG or PNG file is complete before MediaPipe decodes it.
///
/// MediaPipe's decoder (stb_image) turns a JPEG cut short into an image padded
/// with grey rather than failing; landmarks found on such an image would be
/// guesses, so a file whose image data does not end is refused here instead.
enum ImageFileIntegrity {
    static func check(_ bytes: Data, path: String) throws {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            // The image data follows the last start-of-scan marker and ends with end-of-image.
            guard let scan = lastRange(of: [0xFF, 0xDA], in: bytes) else {
                throw LandmarkerError(.unreadableImage, "\(path): JPEG without image data")
            }
            guard bytes[scan.upperBound...].firstRange(of: [0xFF, 0xD9]) != nil else {
                throw LandmarkerError(.unreadableImage, "\(path): truncated JPEG (its image data does not end)")
            }
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let idat = Array("IDAT".utf8), iend = Array("IEND".utf8)
            guard let data = lastRange(of: idat, in: bytes) else {
                throw LandmarkerError(.unreadableImage, "\(path): PNG without image data")
            }
            guard bytes[data.upperBound...].firstRange(of: iend) != nil else {
                throw LandmarkerError(.unreadableImage, "\(path): truncated PNG (no IEND chunk after its image data)")
            }
        }
    }

    private static func lastRange(of pattern: [UInt8], in bytes: Data) -> Range<Data.Index>? {
        var found: Range<Data.Index>?
        var rest = bytes[...]
        while let range = rest.firstRange(of: pattern) {
            found = range
            rest = bytes[range.upperBound...]
        }
        return found
    }
}
